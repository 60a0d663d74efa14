/// A handler's answer to one request, as a value: the connection turns it into bytes.
///
/// Most replies are ready when the handler returns (`.prepared` is the fast path: no
/// serialisation per request). A reply that can only be known later, from another thread
/// (an upstream call, a database on a thread pool), is `.deferred`: the handler returns a
/// ``DeferredReply`` and completes it when the answer is there.
///
/// ```swift
/// .prepared(pets)                                              // fast path
/// .response(HTTPResponse(text: "hello"))
/// .response(HTTPResponse(text: "slow")).delayed(by: .fixed(.milliseconds(200)))
/// .dribbled(HTTPResponse(text: "drip"), HTTPDribble(chunkCount: 4, duration: .seconds(1)))
/// .fault(.connectionReset)
/// ```
public enum HTTPReply: Sendable {
    /// A response built for this request.
    case response(HTTPResponse)
    /// A response serialised once, sent as it is.
    case prepared(PreparedResponse)
    /// A deliberately broken answer.
    case fault(HTTPFault)
    /// Another reply, sent after a delay drawn from `HTTPDelay` (on the loop's timers).
    indirect case delayed(HTTPReply, by: HTTPDelay)
    /// A response whose body is sent slowly, in chunks spread over time.
    case dribbled(HTTPResponse, HTTPDribble)
    /// A reply completed later, from any thread.
    case deferred(DeferredReply)

    /// This reply after `delay`; itself when the delay is ``HTTPDelay/none``.
    public func delayed(by delay: HTTPDelay) -> HTTPReply {
        if case .none = delay { return self }
        return .delayed(self, by: delay)
    }

    /// A prepared response, dribbled when `dribble` is given.
    public static func prepared(_ response: PreparedResponse, dribble: HTTPDribble?) -> HTTPReply {
        guard let dribble else { return .prepared(response) }
        return .dribbled(response.response, dribble)
    }

    /// The response this reply sends, as a handler's tests want to read it: delays and
    /// dribbles set aside, a prepared response as it was prepared (before any gzip the
    /// connection may choose), a deferred reply waited for (at most `timeout`). Nil for a
    /// fault, and for a deferred reply not completed in time.
    public func response(waitingAtMost timeout: Duration = .seconds(10)) -> HTTPResponse? {
        switch self {
        case .response(let response), .dribbled(let response, _): response
        case .prepared(let prepared): prepared.response
        case .fault: nil
        case .delayed(let reply, _): reply.response(waitingAtMost: timeout)
        case .deferred(let deferred): deferred.wait(atMost: timeout)?.response(waitingAtMost: timeout)
        }
    }

    /// The fault this reply ends in, if it is one (delays set aside, a deferred reply waited for).
    public func fault(waitingAtMost timeout: Duration = .seconds(10)) -> HTTPFault? {
        switch self {
        case .fault(let fault): fault
        case .response, .prepared, .dribbled: nil
        case .delayed(let reply, _): reply.fault(waitingAtMost: timeout)
        case .deferred(let deferred): deferred.wait(atMost: timeout)?.fault(waitingAtMost: timeout)
        }
    }
}
