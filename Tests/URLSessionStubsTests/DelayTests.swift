import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delays and dribbles are recorded and skipped by default, and played when asked.
@Suite struct DelayTests {
    static let body = String(repeating: "0123456789", count: 10)

    @Test func aDelayIsRecordedNotWaitedByDefault() async throws {
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { request in
                let seconds = request.path == "/slow" ? 2 : 5
                return .response(HTTPResponse(text: "late")).delayed(by: .fixed(.seconds(seconds)))
            })
        // Answered although the delays add up to far more than the test's time limit allows.
        #expect(try await fetch(host.session, "http://api.example/slow").text == "late")
        #expect(try await fetch(host.session, "http://api.example/slower").text == "late")
        #expect(host.recordedDelays == [.seconds(2), .seconds(5)])
        #expect(host.recordedDribbles == [])
    }

    @Test func aDribbleIsRecordedAndTheBodyArrivesWholeByDefault() async throws {
        let dribble = HTTPDribble(chunkCount: 4, duration: .seconds(30))
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in .dribbled(HTTPResponse(text: Self.body), dribble) })
        let fetched = try await fetch(host.session, "http://api.example/drip")
        #expect(fetched.text == Self.body)
        #expect(fetched.response?.value(forHTTPHeaderField: "Transfer-Encoding") == "chunked")
        #expect(host.recordedDribbles == [dribble])
    }

    @Test func aWaitedDelayHoldsTheAnswerUntilCancelled() async throws {
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { request in
                let reply = HTTPReply.response(HTTPResponse(text: "answer"))
                return request.path == "/slow" ? reply.delayed(by: .fixed(.seconds(600))) : reply
            },
            options: StubSessionOptions(waitsForDelays: true))
        let outcomes = AsyncStream<Fetched>.makeStream()
        let slow = host.session.dataTask(with: try #require(URL(string: "http://api.example/slow"))) {
            data, response, error in
            outcomes.continuation.yield(
                Fetched(data: data, response: response as? HTTPURLResponse, error: error.map(urlError)))
        }
        slow.resume()
        // A later request is answered first: the slow one is waiting on its timer.
        #expect(try await fetch(host.session, "http://api.example/fast").text == "answer")
        #expect(host.recordedDelays == [.seconds(600)])
        #expect(slow.state == .running)
        slow.cancel()
        var iterator = outcomes.stream.makeAsyncIterator()
        #expect(await iterator.next()?.error?.code == .cancelled)
    }

    @Test func aWaitedDelayThenAnswers() async throws {
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in
                .response(HTTPResponse(text: "after")).delayed(by: .fixed(.milliseconds(20)))
            },
            options: StubSessionOptions(waitsForDelays: true))
        #expect(try await fetch(host.session, "http://api.example/x").text == "after")
        #expect(host.recordedDelays == [.milliseconds(20)])
    }

    @Test func aWaitedDribbleGivesACompletionHandlerTheWholeBody() async throws {
        let dribble = HTTPDribble(chunkCount: 3, duration: .milliseconds(30))
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in .dribbled(HTTPResponse(text: Self.body), dribble) },
            options: StubSessionOptions(waitsForDelays: true))
        let fetched = try await fetch(host.session, "http://api.example/drip")
        #expect(fetched.text == Self.body)
        #expect(host.recordedDribbles == [dribble])
    }

    @Test func aWaitedDribbleGivesADelegateTheWholeBody() async throws {
        let dribble = HTTPDribble(chunkCount: 3, duration: .milliseconds(30))
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in .dribbled(HTTPResponse(text: Self.body), dribble) },
            options: StubSessionOptions(waitsForDelays: true))
        let pieces = PieceCounter()
        let session = URLSession(configuration: host.configuration, delegate: pieces, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: try #require(URL(string: "http://api.example/drip"))).resume()
        let received = await pieces.finished()
        #expect(String(decoding: received.joined(), as: UTF8.self) == Self.body)
        // FoundationNetworking keeps only a URLProtocol's last piece for a completion handler,
        // so the body comes in one piece there.
        #if canImport(FoundationNetworking)
        #expect(received.count == 1)
        #else
        #expect(received.count == 3)
        #endif
        #expect(host.recordedDribbles == [dribble])
    }
}

/// A session delegate keeping each piece of body as it arrives.
final class PieceCounter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safe to share: the pieces are only touched under the lock.
    private let lock = NSLock()
    private var pieces: [Data] = []
    private let done = AsyncStream<[Data]>.makeStream()

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { pieces.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        done.continuation.yield(lock.withLock { pieces })
    }

    /// The pieces, once the task completed.
    func finished() async -> [Data] {
        var iterator = done.stream.makeAsyncIterator()
        return await iterator.next() ?? []
    }
}
