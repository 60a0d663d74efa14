import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A deferred reply answers when it is completed, from any thread, and a cancelled task
/// stops waiting for it.
@Suite struct DeferredReplyTests {
    @Test func aDeferredReplyAnswersOnceCompletedFromAnotherThread() async throws {
        let started = Started()
        let host = StubURLSessionHost(handler: started.handler)
        let url = try #require(URL(string: "http://api.example/later"))
        async let fetched = fetch(host.session, URLRequest(url: url))
        let deferred = try #require(await started.next())
        Thread.detachNewThread { deferred.complete(.response(HTTPResponse(status: .created, text: "done"))) }
        let result = await fetched
        #expect(result.status == 201)
        #expect(result.text == "done")
    }

    @Test func aDeferredReplyCanEndInAFaultOrADelay() async throws {
        let started = Started()
        let host = StubURLSessionHost(handler: started.handler)
        let url = try #require(URL(string: "http://api.example/later"))
        async let fetched = fetch(host.session, URLRequest(url: url))
        let deferred = try #require(await started.next())
        deferred.complete(.fault(.connectionReset).delayed(by: .fixed(.seconds(3))))
        #expect(await fetched.error?.code == .networkConnectionLost)
        #expect(host.recordedDelays == [.seconds(3)])
    }

    @Test func cancellingStopsWaitingAndALateCompletionIsIgnored() async throws {
        let started = Started()
        let host = StubURLSessionHost(handler: started.handler)
        let url = try #require(URL(string: "http://api.example/never"))
        let outcomes = AsyncStream<Fetched>.makeStream()
        let task = host.session.dataTask(with: url) { data, response, error in
            outcomes.continuation.yield(
                Fetched(data: data, response: response as? HTTPURLResponse, error: error.map(urlError)))
        }
        task.resume()
        let deferred = try #require(await started.next())
        task.cancel()
        var iterator = outcomes.stream.makeAsyncIterator()
        let outcome = try #require(await iterator.next())
        #expect(outcome.error?.code == .cancelled)
        #expect(outcome.response == nil)
        deferred.complete(.response(HTTPResponse(text: "too late")))
        // The same session still answers, and the late completion reached no one.
        let after = try await fetchAnswered(host, started, "http://api.example/after")
        #expect(after.text == "next")
        outcomes.continuation.finish()
        #expect(await iterator.next() == nil)
    }

    func fetchAnswered(_ host: StubURLSessionHost, _ started: Started, _ url: String) async throws -> Fetched {
        async let fetched = fetch(host.session, url)
        let deferred = try #require(await started.next())
        deferred.complete(.response(HTTPResponse(text: "next")))
        return try await fetched
    }
}
