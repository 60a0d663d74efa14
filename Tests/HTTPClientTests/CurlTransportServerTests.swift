import HTTPClient
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import TestSupport
import Testing

/// CurlTransport against our own HTTPServer on loopback: the real thing at both ends.
@Suite(.timeLimit(.minutes(10))) struct CurlTransportServerTests {
    static let json = Array(
        ("[" + (0..<400).map { #"{"firstName":"Pet \#($0)","vetId":\#($0 % 7)}"# }.joined(separator: ",") + "]").utf8)

    let transport = CurlTransport()

    @Test func sequentialRequestsReuseOneKeptAliveConnection() async throws {
        let server = try LiveHTTPServer { _ in return .response(HTTPResponse(text: "ok")) }
        var reused: [Bool] = []
        for _ in 0..<10 {
            let response = try await transport.send(HTTPClientRequest(url: server.url("/ping")))
            #expect(response.status == .ok)
            #expect(response.body == Array("ok".utf8))
            reused.append(response.connectionReused)
        }
        #expect(reused == [false] + Array(repeating: true, count: 9))
        #expect(server.connectionCount == 1)
    }

    @Test func gzipBodiesArriveDecodedAndSayHowTheyCame() async throws {
        let server = try LiveHTTPServer { _ in
            return .response(
                HTTPResponse(
                    headers: ["Content-Type": "application/json"], body: Self.json, compression: .gzipIfAccepted))
        }
        let response = try await transport.send(HTTPClientRequest(url: server.url("/pets")))
        #expect(response.body == Self.json)
        #expect(response.contentEncoding == "gzip")
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.mediaType == "application/json")
        let accepted = server.requests.first?.headers["Accept-Encoding"] ?? ""
        #expect(accepted.contains("gzip") && accepted.contains("deflate"))

        let raw = CurlTransport(configuration: .init(decompress: false))
        let plain = try await raw.send(HTTPClientRequest(url: server.url("/pets")))
        #expect(plain.body == Self.json)
        #expect(plain.contentEncoding == nil)
    }

    @Test func chunkedBodiesAreReassembled() async throws {
        let server = try LiveHTTPServer { _ in
            return .response(HTTPResponse(body: Self.json, framing: .chunked))
        }
        let response = try await transport.send(HTTPClientRequest(url: server.url("/chunked")))
        #expect(response.headers["Transfer-Encoding"] == "chunked")
        #expect(response.body == Self.json)
    }

    @Test func methodsHeadersAndBodiesReachTheServer() async throws {
        let server = try LiveHTTPServer { request in
            return .response(
                HTTPResponse(
                    status: .created, headers: ["X-Method": request.method.rawValue, "Set-Cookie": "id=1"],
                    body: request.body))
        }
        let body = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        let response = try await transport.send(
            HTTPClientRequest(
                method: .put, url: server.url("/upload?x=1"),
                headers: ["Content-Type": "text/plain", "X-Trace": "abc", "X-Empty": ""], body: body))
        #expect(response.status == .created)
        #expect(response.headers["X-Method"] == "PUT")
        #expect(response.body == body)
        let received = try #require(server.requests.first)
        #expect(received.headers["X-Trace"] == "abc")
        #expect(received.headers.contains(name: "X-Empty"))
        #expect(received.headers["Content-Type"] == "text/plain")
        #expect(received.headers["User-Agent"] == "petkit-httpclient/1")
        #expect(!received.headers.contains(name: "Expect"))
        #expect(received.query == "x=1")

        let head = try await transport.send(HTTPClientRequest(method: .head, url: server.url("/upload")))
        #expect(head.body.isEmpty)
        let post = try await transport.send(HTTPClientRequest(method: .post, url: server.url("/empty")))
        #expect(post.status == .created)
        #expect(server.requests.last?.headers["Content-Length"] == "0")
        #expect(server.requests.last?.headers["Content-Type"] == nil)
    }

    @Test func aKeepAliveSequenceHasNoDelayedAckStalls() async throws {
        // Nagle's algorithm meeting a delayed ACK costs 40 ms per exchange, every time; a
        // stall-free connection answers a small request in well under a millisecond. The
        // median keeps a scheduling hiccup on a busy machine from failing the test.
        let server = try LiveHTTPServer { request in
            return .response(HTTPResponse(headers: ["Content-Type": "application/json"], body: Self.json))
        }
        var totals: [Duration] = []
        for index in 0..<30 {
            let request =
                index % 2 == 0
                ? HTTPClientRequest(url: server.url("/pets"))
                : HTTPClientRequest(method: .post, url: server.url("/pets"), body: Array(Self.json.prefix(3000)))
            let response = try await transport.send(request)
            #expect(response.body == Self.json)
            totals.append(response.timings.total)
        }
        #expect(server.connectionCount == 1)
        let median = totals.sorted()[totals.count / 2]
        #expect(median < .milliseconds(40), "median \(median) over \(totals)")
    }

    @Test func concurrentRequestsRunTogetherOnTheOneIOThread() async throws {
        // The server answers nobody until all 12 requests are in, so a client that ran them
        // one at a time would never finish (and the time limit would fail the test).
        let waiting = Locked<[DeferredReply]>([])
        let server = try LiveHTTPServer { request in
            let reply = DeferredReply()
            let batch = waiting.withLock { waiting -> [DeferredReply] in
                waiting.append(reply)
                guard waiting.count == 12 else { return [] }
                defer { waiting = [] }
                return waiting
            }
            for held in batch { held.complete(.response(HTTPResponse(text: "released"))) }
            return .deferred(reply)
        }
        let transport = self.transport
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for index in 0..<12 {
                group.addTask { try await transport.send(HTTPClientRequest(url: server.url("/wait/\(index)"))).body }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies == Array(repeating: Array("released".utf8), count: 12))
        #expect(server.connectionCount == 12)
    }

    @Test func totalTimeoutCutsOffASlowAnswer() async throws {
        let server = try LiveHTTPServer { _ in
            return .response(HTTPResponse(text: "late")).delayed(by: .fixed(.seconds(30)))
        }
        await #expect {
            try await transport.send(HTTPClientRequest(url: server.url("/slow"), timeout: .milliseconds(250)))
        } throws: { error in
            (error as? HTTPClientError)?.kind == .timedOut
        }
    }

    @Test(arguments: [
        (HTTPFault.connectionReset, HTTPClientError.Kind.connectionClosed),
        (.emptyResponse, .connectionClosed),
        (.truncatedBody(HTTPResponse(text: String(repeating: "a", count: 1000)), keepingBytes: 10), .connectionClosed),
        (.malformedResponseChunk(), .malformedResponse),
        (.randomDataThenClose(byteCount: 64), .malformedResponse),
    ])
    func brokenConnectionsFailWithTheirKind(fault: HTTPFault, kind: HTTPClientError.Kind) async throws {
        let server = try LiveHTTPServer { _ in return .fault(fault) }
        await #expect {
            try await transport.send(HTTPClientRequest(url: server.url("/broken")))
        } throws: { error in
            guard let error = error as? HTTPClientError else { return false }
            return error.kind == kind && error.curlCode != nil && !error.message.isEmpty
        }
    }

    @Test func cancellationMidRequestAbandonsOnlyThatRequest() async throws {
        let arrived = AsyncStream<Void>.makeStream()
        let server = try LiveHTTPServer { request in
            if request.path == "/hang" {
                arrived.continuation.yield()
                return .response(HTTPResponse(text: "too late")).delayed(by: .fixed(.seconds(30)))
            } else {
                return .response(HTTPResponse(text: "fine"))
            }
        }
        let transport = self.transport
        let task = Task { try await transport.send(HTTPClientRequest(url: server.url("/hang"))) }
        for await _ in arrived.stream { break }
        task.cancel()
        expectCancelled(await task.result)
        let after = try await transport.send(HTTPClientRequest(url: server.url("/next")))
        #expect(after.body == Array("fine".utf8))
    }

    @Test func oversizedBodiesFailAsTooLargeWhateverTheFraming() async throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let server = try LiveHTTPServer { request in
            switch request.path {
            case "/length": return .response(HTTPResponse(body: zeros))
            case "/chunked": return .response(HTTPResponse(body: zeros, framing: .chunked))
            default: return .response(HTTPResponse(body: zeros, compression: .gzipIfAccepted))
            }
        }
        let limited = CurlTransport(configuration: .init(maxResponseSize: 64 * 1024))
        for path in ["/length", "/chunked", "/gzip-bomb"] {
            await #expect {
                try await limited.send(HTTPClientRequest(url: server.url(path)))
            } throws: { error in
                (error as? HTTPClientError)?.kind == .tooLarge
            }
        }
        let fits = try await transport.send(HTTPClientRequest(url: server.url("/gzip-bomb")))
        #expect(fits.body.count == zeros.count)
        #expect(fits.contentEncoding == "gzip")
    }

    @Test func responsesCarryVersionReasonAndTimings() async throws {
        let server = try LiveHTTPServer { _ in
            return .response(HTTPResponse(status: HTTPStatus(code: 418, reasonPhrase: "Short And Stout")))
        }
        let response = try await transport.send(HTTPClientRequest(url: server.url("/teapot")))
        #expect(response.status.code == 418)
        #expect(response.status.reasonPhrase == "Short And Stout")
        #expect(response.version == .http11)
        #expect(response.url == server.url("/teapot"))
        #expect(response.timings.total >= response.timings.firstByte)
        #expect(response.timings.firstByte >= response.timings.connect)
        #expect(response.timings.total > .zero)
    }

    @Test func theLoggerSeesCurlCommandsAndSummaries() async throws {
        let server = try LiveHTTPServer { _ in return .response(HTTPResponse(text: "hi")) }
        let lines = Locked<[String]>([])
        let logged = CurlTransport(
            configuration: .init(logger: HTTPClientLogger { entry in lines.withLock { $0.append("\(entry)") } }))
        _ = try await logged.send(
            HTTPClientRequest(url: server.url("/hello"), headers: ["Authorization": "Bearer s3cret"]))
        let text = lines.withLock { $0 }
        #expect(text.count == 2)
        #expect(text.first == "curl --compressed \(server.url("/hello")) -H 'Authorization: <redacted>'")
        #expect(text.last?.hasPrefix("200 OK HTTP/1.1, 2 bytes, text/plain") == true)
    }
}
