import HTTPCore
import HTTPHandlerKit
import StubFormat

extension StubEngine {
    /// Forwards a request to the live API and replies with what came back (see
    /// ``ProxyReply``), a deferred reply; records the exchange when recording, and journals
    /// it marked as proxied. The reply is completed once the exchange is recorded, so a
    /// caller that has its response knows the mapping is on disk.
    func forward(_ request: HTTPServerRequest, to target: String, recorder: Recorder?) -> HTTPReply {
        let json = Self.wantsJSON(request.headers)
        guard let recorder else { return passOn(request, to: target, json: json) }
        let later = DeferredReply()
        let timeout = recorder.configuration.timeout
        proxy.run { [self] in
            let origin = request.head.originForm
            let upstream = await proxy.forward(
                method: request.method, originForm: origin, headers: request.headers, body: request.body,
                target: target, timeout: timeout)
            let exchange = RecordedExchange(
                method: request.method, url: String(origin), headers: request.headers, body: request.body,
                upstream: upstream)
            recorder.record(exchange)
            let reply = upstream.reply
            // The recorder's own events say what happened to each request.
            record(request, nil, variant: nil, status: reply.status, stub: nil, upstream: upstream)
            later.complete(reply.httpReply(json: json))
        }
        return .deferred(later)
    }

    /// Passes an unmatched request on to the live API (`--proxy-unmatched`), as a proxy stub
    /// does: on the request's own event loop, answered and journaled from there, with no task.
    private func passOn(_ request: HTTPServerRequest, to target: String, json: Bool) -> HTTPReply {
        let later = DeferredReply()
        let origin = request.head.originForm
        let started = proxy.forward(
            method: request.method, originForm: origin, headers: request.headers, body: request.body,
            target: target, timeout: upstreamTimeout, on: request.eventLoop
        ) { [self] upstream in
            let reply = upstream.reply
            record(request, nil, variant: nil, status: reply.status, stub: nil, upstream: upstream)
            let label = "\(request.method) \(origin)"
            publish(.proxied(request: label, upstream: upstream.url, result: Self.describe(upstream)))
            later.complete(reply.httpReply(json: json))
        }
        guard started else {
            record(request, nil, variant: nil, status: 503, stub: nil)
            return .response(Self.overloaded(proxy.settings, json: json))
        }
        return .deferred(later)
    }

    /// Passes a request on as a proxy stub says (`proxyBaseUrl`, rendered first when it is a
    /// template): its prefix removed, its headers adjusted; the answer goes back as the
    /// upstream gave it (a deferred reply), journaled with the stub. A templated base URL that
    /// renders to anything but an http(s) URL is a 500 saying so; nothing is sent.
    func forward(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, through proxy: ProxyDefinition,
        stub: CompiledStub
    ) -> HTTPReply {
        var proxy = proxy
        if let template = stub.proxyTemplate {
            switch template.render(request, matchable, stub: stub) {
            case .success(let base): proxy.baseURL = base
            case .failure(let failure):
                record(request, matchable, variant: nil, status: 500, stub: stub)
                return .response(
                    HTTPResponse(
                        status: HTTPStatus(code: 500), text: "petmock: stub \(stub.mapping.id): \(failure.message)\n"))
            }
        }
        let json = Self.wantsJSON(request.headers)
        let later = DeferredReply()
        let originForm = proxy.upstreamOriginForm(request.head.originForm)
        let headers = proxy.forwardedHeaders(request.headers)
        // Called back on the request's own event loop (the transfer runs there), or on
        // libcurl's I/O thread: journaling and completing the reply are all it does, so no
        // task (and its thread hops) per proxied request.
        let started = self.proxy.forward(
            method: request.method, originForm: originForm, headers: headers, body: request.body,
            target: proxy.baseURL, timeout: upstreamTimeout, on: request.eventLoop
        ) { [self] upstream in
            let reply = upstream.reply
            record(request, nil, variant: nil, status: reply.status, stub: stub, upstream: upstream)
            later.complete(reply.httpReply(json: json))
        }
        guard started else {
            record(request, nil, variant: nil, status: 503, stub: stub)
            return .response(Self.overloaded(self.proxy.settings, json: json))
        }
        return .deferred(later)
    }

    /// The answer to a proxied request beyond the loop's limit of transfers under way.
    static func overloaded(_ settings: UpstreamSettings, json: Bool) -> HTTPResponse {
        var response = ProxyReply.gatewayResponse(
            status: 503, kind: .other,
            message: "petmock: \(settings.maxTransfersPerLoop) proxied requests are under way on this event loop "
                + "(the limit); try again", json: json)
        response.headers.replaceOrAdd(name: ProxyReply.errorHeader, value: "overloaded")
        response.headers.add(name: "Retry-After", value: "1")
        return response
    }

    /// `200 OK in 12 ms`, or the failure.
    static func describe(_ upstream: UpstreamResult) -> String {
        let milliseconds = RecordedMappingBuilder.milliseconds(upstream.duration)
        switch upstream.outcome {
        case .success(let response): return "\(response.status) in \(milliseconds) ms"
        case .failure(let error): return "failed after \(milliseconds) ms: \(error.message)"
        }
    }
}
