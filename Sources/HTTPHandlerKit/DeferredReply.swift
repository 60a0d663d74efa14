import Dispatch
import Platform

/// A reply that a handler completes later, from any thread: the handler returns
/// `.deferred(reply)` at once and calls ``complete(_:)`` when the answer is known.
///
/// ```swift
/// func reply(to request: HTTPServerRequest) -> HTTPReply {
///     let later = DeferredReply()
///     Task { later.complete(.response(HTTPResponse(body: await fetch()))) }
///     return .deferred(later)
/// }
/// ```
///
/// One deferred reply answers one request: return a new one from each call. The first
/// completion counts; later ones are ignored, and so is a completion after the client went
/// away or the server stopped. Completing from another thread costs one hop to the
/// connection's event loop. Tests of handlers read a deferred reply with ``wait(atMost:)``.
public final class DeferredReply: @unchecked Sendable {
    // Safe to share: `state` is only read or written holding `lock`. A lock and a stored
    // property rather than a `Locked` value: one object fewer per deferred request.
    private enum State {
        /// Not complete; the semaphore a test waits on, once one does.
        case pending(DispatchSemaphore?)
        case completed(HTTPReply)
        /// The connection is waiting: the reply goes to it.
        case attached(@Sendable (HTTPReply) -> Void)
        case delivered
    }

    private let lock = Lock()
    private var state = State.pending(nil)

    /// Creates a pending reply.
    public init() {}

    /// Completes the reply; the first call counts.
    public func complete(_ reply: HTTPReply) {
        let (receiver, waiter) = lock.withLock { () -> ((@Sendable (HTTPReply) -> Void)?, DispatchSemaphore?) in
            switch state {
            case .pending(let waiter):
                state = .completed(reply)
                return (nil, waiter)
            case .attached(let receiver):
                state = .delivered
                return (receiver, nil)
            case .completed, .delivered:
                return (nil, nil)
            }
        }
        waiter?.signal()
        receiver?(reply)
    }

    /// Hands the reply to `receiver` once it is complete (at once if it already is).
    package func whenComplete(_ receiver: @escaping @Sendable (HTTPReply) -> Void) {
        let ready: HTTPReply? = lock.withLock {
            switch state {
            case .pending:
                state = .attached(receiver)
                return nil
            case .completed(let reply):
                state = .delivered
                return reply
            case .attached, .delivered:
                return nil
            }
        }
        if let ready { receiver(ready) }
    }

    /// Blocks until the reply is complete or `timeout` passed; the reply, or nil. For tests
    /// of handlers: a reply already handed to a connection is not seen here.
    public func wait(atMost timeout: Duration) -> HTTPReply? {
        let waiter: DispatchSemaphore? = lock.withLock {
            guard case .pending(let existing) = state else { return nil }
            if let existing { return existing }
            let created = DispatchSemaphore(value: 0)
            state = .pending(created)
            return created
        }
        if let waiter {
            guard waiter.wait(timeout: .now() + .nanoseconds(Int(clamping: timeout.nanoseconds))) == .success else {
                return nil
            }
            waiter.signal()  // for the next waiter
        }
        return lock.withLock {
            if case .completed(let reply) = state { return reply }
            return nil
        }
    }
}
