import HTTPCore
import HTTPHandlerKit
import StubFormat

/// Where a forwarded request goes and what goes with it: for recording, for an unmatched
/// request (`--proxy-unmatched`) or for a proxy stub, the one shape ``ForwardStage`` sends.
struct ForwardRoute: Sendable {
    /// Why the request is forwarded.
    enum Kind: Sendable, Equatable {
        /// Recording is on: the exchange is recorded, then answered.
        case recording
        /// No stub matched and unmatched requests go upstream.
        case unmatched
        /// A proxy stub matched.
        case stub
    }

    var kind: Kind
    /// The upstream's base URL.
    var target: String
    /// The path and query sent upstream.
    var originForm: Substring
    /// The header fields sent upstream (hop-by-hop ones are dropped when sending).
    var headers: HTTPHeaders
    var timeout: Duration
    /// The proxy stub that matched, for `.stub`.
    var stub: CompiledStub?
    /// The recorder, for `.recording`.
    var recorder: Recorder?
    /// For `.unmatched` with a document (the validating proxy): the operation and the check of
    /// the live API's answer.
    var check: DocumentCheck?

    /// Recording's route: the request as it came, with the recording's timeout.
    static func recording(_ request: HTTPServerRequest, to target: String, recorder: Recorder) -> ForwardRoute {
        ForwardRoute(
            kind: .recording, target: target, originForm: request.head.originForm, headers: request.headers,
            timeout: recorder.configuration.timeout, recorder: recorder)
    }

    /// An unmatched request's route: the request as it came.
    static func unmatched(_ request: HTTPServerRequest, to target: String, timeout: Duration) -> ForwardRoute {
        ForwardRoute(
            kind: .unmatched, target: target, originForm: request.head.originForm, headers: request.headers,
            timeout: timeout)
    }

    /// A proxy stub's route (`proxyBaseUrl`, rendered first when it is a template): its prefix
    /// removed, its headers adjusted. A templated base URL that fails to render is the
    /// message of the stub's 500.
    static func stub(
        _ stub: CompiledStub, _ definition: ProxyDefinition, _ event: ServeEvent, timeout: Duration
    ) -> Result<ForwardRoute, ResponseTemplate.Failure> {
        var definition = definition
        if let template = stub.proxyTemplate {
            switch template.render(event.request, event.matchable, stub: stub) {
            case .success(let base): definition.baseURL = base
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(
            ForwardRoute(
                kind: .stub, target: definition.baseURL,
                originForm: definition.upstreamOriginForm(event.request.head.originForm),
                headers: definition.forwardedHeaders(event.request.headers), timeout: timeout, stub: stub))
    }
}

/// The serving stage that passes a request on to a live API and answers with what came back
/// (see ``ProxyReply``), as a deferred reply: one function for recording, `--proxy-unmatched`
/// and proxy stubs. Once the answer is known it runs a proxy stub's state listeners on it
/// (``StateStage``), then commits.
enum ForwardStage {
    /// Sends the request along `route` through `proxy`. Recording runs as a counted task (the
    /// recorder writes files) and completes the reply once the exchange is recorded, so a
    /// caller that has its response knows the mapping is on disk. The others run on the
    /// request's own event loop (or libcurl's I/O thread), called back there: committing and
    /// completing the reply is all the callback does, so no task and no thread hop. Beyond the
    /// loop's limit of transfers under way, a 503.
    static func forward(
        _ request: HTTPServerRequest, along route: ForwardRoute, through proxy: UpstreamProxy, commit: CommitStage,
        state: StateStage? = nil
    ) -> HTTPReply {
        let json = StubEngine.wantsJSON(request.headers)
        let later = DeferredReply()
        let stubHeaders = route.stub?.mapping.response.headers ?? HTTPHeaders()
        let finish: @Sendable (UpstreamResult) -> Void = { upstream in
            var reply = upstream.reply.setting(stubHeaders)
            var checked: (operation: String, violations: [RequestViolation])?
            if let check = route.check {
                // Once per answer, here: the body is bounded by the proxy's size limit and the
                // check by its own (``DocumentCheck/check(_:)``).
                let outcome = check.check(reply)
                reply = outcome.reply
                checked = (check.operation, outcome.violations)
            }
            let answer = reply.httpReply(json: json)
            let problem = recordState(answer, of: route, request, state)
            commit.commit(
                request,
                ServeOutcome(
                    forwarded: route.kind, status: reply.status, stub: route.stub, upstream: upstream, problem: problem,
                    document: checked))
            later.complete(answer)
        }
        if let recorder = route.recorder {
            proxy.run {
                let upstream = await proxy.forward(
                    method: request.method, originForm: route.originForm, headers: route.headers, body: request.body,
                    target: route.target, timeout: route.timeout)
                recorder.record(
                    RecordedExchange(
                        method: request.method, url: String(route.originForm), headers: request.headers,
                        body: request.body, upstream: upstream))
                finish(upstream)
            }
            return .deferred(later)
        }
        let started = proxy.forward(
            method: request.method, originForm: route.originForm, headers: route.headers, body: request.body,
            target: route.target, timeout: route.timeout, on: request.eventLoop, completion: finish)
        guard started else {
            let response = overloaded(proxy.settings, json: json)
            let problem = recordState(.response(response), of: route, request, state)
            commit.commit(
                request,
                ServeOutcome(forwarded: route.kind, status: 503, stub: route.stub, upstream: nil, problem: problem))
            return .response(response)
        }
        return .deferred(later)
    }

    /// Runs a proxy stub's state listeners on the answer its client gets; the problem to
    /// journal, if one failed. The request is read for matching again here: the one the stages
    /// read stays on the thread that matched.
    private static func recordState(
        _ answer: HTTPReply, of route: ForwardRoute, _ request: HTTPServerRequest, _ state: StateStage?
    ) -> RequestProblem? {
        guard let state, let stub = route.stub else { return nil }
        let response: HTTPResponse?
        if case .response(let built) = answer { response = built } else { response = nil }
        return state.record(stub, answered: response, request, MatchableRequest(request))
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
