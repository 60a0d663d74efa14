/// The way to answer one request: at once (on the event loop, inside `handle`), or later
/// from any thread, after a delay, dribbled, or as a fault.
///
/// Exactly one call answers; later calls, and calls after the client went away, are
/// ignored. Answering inside `handle` costs no thread hop; answering from another thread
/// queues the answer to the connection's event loop and wakes it.
///
/// ```swift
/// responder.respond(prepared)                                   // fast path
/// responder.respond(response, delay: .fixed(.milliseconds(200)))
/// responder.fail(.connectionReset)
/// Task { let body = await fetch(); responder.respond(HTTPResponse(body: body)) }
/// ```
public struct HTTPResponder: Sendable {
    /// The event loop that owns the request's connection; its timers suit delayed work.
    public let eventLoop: HTTPEventLoop
    let slot: Int
    let generation: UInt32
    let sequence: UInt64

    /// What a handler answers with.
    enum Reply: Sendable {
        case response(HTTPResponse)
        case prepared(PreparedResponse)
        case fault(HTTPFault)
    }

    /// Sends a response built for this request, after `delay`, optionally dribbled.
    public func respond(_ response: HTTPResponse, delay: HTTPDelay = .none, dribble: HTTPDribble? = nil) {
        eventLoop.deliver(.response(response), dribble: dribble, delay: delay, to: self)
    }

    /// Sends a prepared response, after `delay`, optionally dribbled.
    public func respond(_ response: PreparedResponse, delay: HTTPDelay = .none, dribble: HTTPDribble? = nil) {
        eventLoop.deliver(.prepared(response), dribble: dribble, delay: delay, to: self)
    }

    /// Breaks the connection in the given way, after `delay`.
    public func fail(_ fault: HTTPFault, delay: HTTPDelay = .none) {
        eventLoop.deliver(.fault(fault), dribble: nil, delay: delay, to: self)
    }
}
