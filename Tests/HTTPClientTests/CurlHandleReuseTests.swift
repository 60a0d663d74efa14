import HTTPClient
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

/// The I/O thread reuses the easy handles of finished transfers (reset between them), and
/// `send(_:completion:)` answers without a task: what one request set must never reach the next.
@Suite(.timeLimit(.minutes(10))) struct CurlHandleReuseTests {
    let transport = CurlTransport()

    /// What each request looked like on arrival: method, body, one header.
    private func echoServer() throws -> LiveHTTPServer {
        try LiveHTTPServer { request in
            let trace = request.headers["X-Trace"] ?? "-"
            return .response(
                HTTPResponse(
                    headers: [
                        "X-Method": request.method.rawValue, "X-Seen-Trace": trace,
                        "X-Body-Length": "\(request.body.count)",
                    ],
                    body: request.body.isEmpty ? Array("empty".utf8) : request.body))
        }
    }

    @Test func aReusedHandleCarriesNothingOverFromThePreviousRequest() async throws {
        let server = try echoServer()
        let put = try await transport.send(
            HTTPClientRequest(
                method: .put, url: server.url("/a"), headers: ["X-Trace": "one"], body: Array("payload".utf8)))
        #expect(put.headers["X-Method"] == "PUT")
        #expect(put.body == Array("payload".utf8))
        // The next transfers run on the handle the PUT gave back: no method, body or header of
        // it may leak into them.
        let get = try await transport.send(HTTPClientRequest(url: server.url("/b")))
        #expect(get.headers["X-Method"] == "GET")
        #expect(get.headers["X-Seen-Trace"] == "-")
        #expect(get.headers["X-Body-Length"] == "0")
        #expect(get.body == Array("empty".utf8))
        let head = try await transport.send(HTTPClientRequest(method: .head, url: server.url("/c")))
        #expect(head.body.isEmpty)
        let after = try await transport.send(HTTPClientRequest(url: server.url("/d")))
        #expect(after.headers["X-Method"] == "GET")
        #expect(after.body == Array("empty".utf8), "a GET after a HEAD gets its body back")
        #expect(after.connectionReused)
    }

    @Test func completionIsCalledOnceWithTheResponseOrTheError() async throws {
        let server = try echoServer()
        let outcomes = Locked<[Result<HTTPClientResponse, HTTPClientError>]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let count = 20
            for index in 0..<count {
                transport.send(
                    HTTPClientRequest(method: .post, url: server.url("/\(index)"), body: Array("\(index)".utf8))
                ) {
                    outcome in
                    let finished = outcomes.withLock { all -> Bool in
                        all.append(outcome)
                        return all.count == count
                    }
                    if finished { done.resume() }
                }
            }
        }
        let bodies = outcomes.withLock { $0 }.compactMap { try? $0.get() }.map {
            String(decoding: $0.body, as: UTF8.self)
        }
        #expect(Set(bodies) == Set((0..<20).map(String.init)))

        let failed = await withCheckedContinuation { (done: CheckedContinuation<HTTPClientError?, Never>) in
            transport.send(HTTPClientRequest(url: "http://127.0.0.1:1/nothing-listens")) { outcome in
                if case .failure(let error) = outcome {
                    done.resume(returning: error)
                } else {
                    done.resume(returning: nil)
                }
            }
        }
        #expect(failed?.kind == .couldNotConnect)
    }
}
