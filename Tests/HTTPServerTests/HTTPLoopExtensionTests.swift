import Dispatch
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loop's hook for loop-local components: a descriptor and a deadline of an extension's
/// own, reported on the loop's thread, over both poller back ends; replies completed there are
/// written without a hop.
@Suite struct HTTPLoopExtensionTests {
    static let kinds = HTTPPollerKind.backEnds

    /// Answers parked requests when a byte arrives on its pipe ("byte") or its deadline
    /// passes ("deadline"); records on which thread it was called.
    final class Doorbell: HTTPLoopExtension {
        let loop: HTTPEventLoop
        let descriptor: Int32
        var parked: [DeferredReply] = []
        private(set) var deadline: UInt64?
        let offLoopCalls: Locked<Int>

        init(loop: HTTPEventLoop, descriptor: Int32, offLoopCalls: Locked<Int>) {
            self.loop = loop
            self.descriptor = descriptor
            self.offLoopCalls = offLoopCalls
            try? loop.watch(descriptor, read: true, write: false, for: self)
        }

        func park(_ reply: DeferredReply, deadlineAfter milliseconds: UInt64?) {
            parked.append(reply)
            if let milliseconds { deadline = loop.currentTime + milliseconds * 1_000_000 }
        }

        private func answerAll(_ text: String) {
            if !loop.inEventLoop { offLoopCalls.withLock { $0 += 1 } }
            let replies = parked
            parked = []
            for reply in replies { reply.complete(.response(HTTPResponse(text: text))) }
        }

        func descriptorReady(_ descriptor: Int32, readable: Bool, writable: Bool, failed: Bool) {
            var byte: UInt8 = 0
            _ = read(descriptor, &byte, 1)  // level-triggered: unread, it would come back
            answerAll("byte")
        }

        func deadlineReached() {
            deadline = nil
            answerAll("deadline")
        }

        func loopStopped() {
            loop.unwatch(descriptor)
            answerAll("stopped")
        }
    }

    @Test(arguments: kinds) func aWatchedDescriptorAndADeadlineAnswerOnTheLoop(kind: HTTPPollerKind) throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let offLoop = Locked(0)
        let parked = DispatchSemaphore(value: 0)
        var configuration = HTTPServerConfiguration(eventLoopCount: 1)
        configuration.poller = kind
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            guard let loop = request.serverLoop else { return .response(HTTPResponse(text: "no loop")) }
            let bell = loop.loopExtension { Doorbell(loop: loop, descriptor: readEnd, offLoopCalls: offLoop) }
            let later = DeferredReply()
            bell.park(later, deadlineAfter: request.path == "/deadline" ? 1 : nil)
            parked.signal()
            return .deferred(later)
        }
        try withServer(configuration, handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /byte HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try RawClient(port: server.port)
            try second.send("GET /byte HTTP/1.1\r\nHost: x\r\n\r\n")
            // Both parked (the handler said so), then the byte answers both at once.
            #expect(parked.wait(timeout: .now() + 10) == .success)
            #expect(parked.wait(timeout: .now() + 10) == .success)
            var byte: UInt8 = 1
            #expect(write(writeEnd, &byte, 1) == 1)
            #expect(try client.readResponse().text == "byte")
            #expect(try second.readResponse().text == "byte")
            try client.send("GET /deadline HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().text == "deadline")
        }
        #expect(offLoop.withLock { $0 } == 0, "every call on the loop's thread")
    }
}
