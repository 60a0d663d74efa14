import HTTPHandlerKit
import HTTPServerKit

/// Hands each reply the handler made to the test, so it knows the request reached the
/// handler and can complete a deferred reply itself.
struct Started: Sendable {
    let replies: AsyncStream<DeferredReply>
    private let continuation: AsyncStream<DeferredReply>.Continuation

    init() {
        (replies, continuation) = AsyncStream.makeStream()
    }

    /// A handler answering every request with a new deferred reply sent to ``replies``.
    var handler: HTTPClosureHandler {
        let continuation = continuation
        return HTTPClosureHandler { _ in
            let reply = DeferredReply()
            continuation.yield(reply)
            return .deferred(reply)
        }
    }

    /// The next deferred reply the handler made.
    func next() async -> DeferredReply? {
        var iterator = replies.makeAsyncIterator()
        return await iterator.next()
    }
}
