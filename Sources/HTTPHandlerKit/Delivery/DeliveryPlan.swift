import HTTPCore

/// What an interpreter of replies knows of the request a reply answers: enough to frame it.
package struct DeliveryRequest: Sendable {
    /// The request's method (`HEAD` gets the head only).
    package var method: HTTPMethod
    /// Whether the client speaks HTTP/1.1 (chunked coding) rather than HTTP/1.0.
    package var http11: Bool
    /// The request's fields when its client may take a gzip-compressed body (a socket
    /// client); nil for one that never does (an in-process client). Read only for a response
    /// that offers gzip.
    private let fields: HTTPHeaders?

    /// A request from an in-process client: HTTP/1.1, never gzip.
    package init(method: HTTPMethod) {
        self.method = method
        http11 = true
        fields = nil
    }

    /// A request as a socket client sent it: its method, version and `Accept-Encoding`.
    package init(_ head: HTTPRequestHead) {
        method = head.method
        http11 = head.version == .http11
        fields = head.headers
    }

    /// Whether the client takes a gzip-compressed body.
    package var acceptsGzip: Bool { fields.map { Gzip.isAccepted(by: $0) } ?? false }
}

/// A response as it is sent to one request: its status and fields, its framing and the body
/// bytes that follow the head (gzip-compressed when ``gzip``; none when the framing sends
/// none).
package struct ResponseDelivery: Sendable {
    package let response: HTTPResponse
    package let framing: ResponseFraming
    /// The bytes after the head.
    package let body: [UInt8]
    /// Whether ``body`` is the gzip form.
    package let gzip: Bool
    /// Whether the response offers a gzip form (so the head says it varies with
    /// `Accept-Encoding`).
    package var offersGzip: Bool { response.compression != .identity }

    /// The response framed for `request`, chunked or not, gzip-compressed when it offers gzip,
    /// the request accepts it and `gzip` allows it.
    package init(_ response: HTTPResponse, for request: DeliveryRequest, chunked: Bool, gzip allowed: Bool = true) {
        self.response = response
        let offers = allowed && response.compression != .identity
        let coded = offers && request.acceptsGzip ? response.offeredGzip : nil
        let whole = coded ?? response.body
        gzip = coded != nil
        framing = ResponseFraming(
            status: response.status, bodyCount: whole.count, chunked: chunked, method: request.method,
            http11: request.http11)
        body = framing.sendsBody ? whole : []
    }

    /// The response's own fields without those the server writes itself, then the framing
    /// field: what a client reads of the head (no `Date`, no `Connection`).
    package var clientFields: [(name: String, value: String)] {
        var fields = response.headers.map { (name: $0.name, value: $0.value) }
        fields.removeAll { ResponseFraming.isServerField($0.name) }
        if let field = framing.field { fields.append(field) }
        return fields
    }
}

/// One reply worked out for one request, once: what every interpreter of replies carries
/// out (the socket connection in bytes, the URLSession protocol as a response and data, the
/// handler test drivers as values), so none works out framing, gzip, a delay or a dribble's
/// pieces again. A delay is drawn here, once.
package enum DeliveryPlan: Sendable {
    /// A prepared response: `form` (identity or gzip, head then body) as it is, its body
    /// bytes sent unless ``ResponseFraming/sendsBody`` says not.
    case prepared(PreparedResponse, form: PreparedResponse.Form, framing: ResponseFraming)
    /// A response built for this request.
    case response(ResponseDelivery)
    /// The head at once, then the body in pieces, each at its time after the head, as
    /// `dribble` asks.
    case dribbled(ResponseDelivery, HTTPDribble, pieces: [(bytes: Range<Int>, after: Duration)])
    /// A deliberately broken answer.
    case fault(HTTPFault)
    /// Nothing for `delay` (drawn), then `reply`'s plan.
    case wait(Duration, then: HTTPReply)
    /// The reply comes later, from any thread: its plan is made when it does.
    case later(DeferredReply)
}

extension HTTPReply {
    /// How this reply reaches a client that sent `request`, drawing a delay from `generator`.
    package func plan<Generator: RandomNumberGenerator>(
        for request: DeliveryRequest, using generator: inout Generator
    ) -> DeliveryPlan {
        switch self {
        case .prepared(let prepared):
            let form: PreparedResponse.Form
            if let gzip = prepared.gzip, request.acceptsGzip {
                form = gzip
            } else {
                form = prepared.identity
            }
            let framing = ResponseFraming(
                status: prepared.response.status, bodyCount: form.body.count, chunked: false, method: request.method,
                http11: request.http11)
            return .prepared(prepared, form: form, framing: framing)
        case .response(let response):
            return .response(ResponseDelivery(response, for: request, chunked: response.framing == .chunked))
        case .dribbled(let response, let dribble):
            // A dribbled body goes as it is: its pieces are the body's own bytes.
            let delivery = ResponseDelivery(response, for: request, chunked: true, gzip: false)
            return .dribbled(delivery, dribble, pieces: dribble.schedule(bodyCount: delivery.body.count))
        case .fault(let fault):
            return .fault(fault)
        case .delayed(let reply, let delay):
            return .wait(delay.sample(using: &generator), then: reply)
        case .deferred(let deferred):
            return .later(deferred)
        }
    }

    /// The plan, a delay drawn from the system's generator.
    package func plan(for request: DeliveryRequest) -> DeliveryPlan {
        var generator = SystemRandomNumberGenerator()
        return plan(for: request, using: &generator)
    }
}

/// What a reply ends in, as a test reads it with no socket and no clock.
package enum SettledReply: Sendable {
    case response(ResponseDelivery)
    case fault(HTTPFault)
}

extension HTTPReply {
    /// What this reply ends in for `request`, read through its plan: delays set aside, a
    /// dribbled body whole, a deferred reply waited for (at most `timeout`); nil when a
    /// deferred reply is not completed in time.
    package func settled(for request: DeliveryRequest, waitingAtMost timeout: Duration = .seconds(10)) -> SettledReply?
    {
        switch plan(for: request) {
        case .prepared(let prepared, _, _): .response(ResponseDelivery(prepared.response, for: request, chunked: false))
        case .response(let delivery), .dribbled(let delivery, _, _): .response(delivery)
        case .fault(let fault): .fault(fault)
        case .wait(_, let reply): reply.settled(for: request, waitingAtMost: timeout)
        case .later(let deferred): deferred.wait(atMost: timeout)?.settled(for: request, waitingAtMost: timeout)
        }
    }
}
