import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Testing

/// Replies as values: what the helpers build and what a test reads back, without a server.
@Suite struct HTTPReplyTests {
    static let pets = PreparedResponse(headers: ["Content-Type": "application/json"], body: Array("[]".utf8))

    @Test func noDelayAndNoDribbleLeaveTheFastPathAlone() {
        guard case .prepared(let prepared) = HTTPReply.prepared(Self.pets, dribble: nil).delayed(by: .none) else {
            Issue.record("expected the prepared response itself")
            return
        }
        #expect(prepared === Self.pets)
    }

    @Test func delaysAndDribblesWrapTheResponse() {
        let dribble = HTTPDribble(chunkCount: 3, duration: .milliseconds(30))
        let reply = HTTPReply.prepared(Self.pets, dribble: dribble).delayed(by: .fixed(.milliseconds(5)))
        guard case .delayed(.dribbled(let response, let kept), .fixed(let wait)) = reply else {
            Issue.record("expected a delayed dribble, got \(reply)")
            return
        }
        #expect(response == Self.pets.response && kept == dribble && wait == .milliseconds(5))
        #expect(reply.response() == Self.pets.response, "tests read through delays and dribbles")
        #expect(reply.fault() == nil)
    }

    @Test func aClosureHandlerIsCalledAsAFunction() {
        let handler = HTTPClosureHandler { request in
            request.method == .delete ? .fault(.connectionReset) : .response(HTTPResponse(text: String(request.path)))
        }
        let get = handler.reply(to: HTTPServerRequest(target: "/a/b?c=d"))
        #expect(get.response()?.body == Array("/a/b".utf8))
        let delete = handler.reply(to: HTTPServerRequest(method: .delete, target: "/a"))
        #expect(delete.fault() == .connectionReset && delete.response() == nil)
    }

    @Test func aDeferredReplyIsReadOnceCompletedFromAnotherThread() {
        let later = DeferredReply()
        DispatchQueue.global().async { later.complete(.response(HTTPResponse(status: .created))) }
        #expect(HTTPReply.deferred(later).response(waitingAtMost: .seconds(10))?.status == .created)
        #expect(DeferredReply().wait(atMost: .milliseconds(1)) == nil, "an incomplete reply times out")
    }
}
