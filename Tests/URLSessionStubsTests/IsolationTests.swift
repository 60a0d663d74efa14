import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hosts running side by side (Swift Testing runs the cases in parallel) each see only their
/// own handler's answers.
@Suite struct IsolationTests {
    /// A handler with state of its own: it counts the requests it answered.
    final class CountingHandler: HTTPHandler {
        let name: String
        private let count = Locked(0)

        init(name: String) { self.name = name }

        func reply(to request: HTTPServerRequest) -> HTTPReply {
            let number = count.withLock { count in
                count += 1
                return count
            }
            return .response(HTTPResponse(text: "\(name)#\(number)"))
        }

        var answered: Int { count.withLock { $0 } }
    }

    @Test(arguments: 0..<64)
    func eachHostAnswersOnlyItsOwnRequests(index: Int) async throws {
        let closureHost = StubURLSessionHost(
            handler: HTTPClosureHandler { request in .response(HTTPResponse(text: "case \(index) \(request.path)")) })
        let counting = CountingHandler(name: "counter-\(index)")
        let countingHost = StubURLSessionHost(handler: counting)
        // Both hosts share one URL: only the session decides who answers.
        let url = "http://api.example/same"
        for round in 1...5 {
            async let fromClosure = fetch(closureHost.session, url)
            async let fromCounter = fetch(countingHost.session, url)
            #expect(try await fromClosure.text == "case \(index) /same")
            #expect(try await fromCounter.text == "counter-\(index)#\(round)")
        }
        #expect(counting.answered == 5)
    }
}
