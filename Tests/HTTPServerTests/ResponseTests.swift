import HTTPCore
import TestSupport
import Testing

@testable import HTTPHandlerKit
@testable import HTTPServerKit

@Suite struct GzipTests {
    @Test(arguments: [
        ("gzip", true), ("deflate, gzip;q=0.5", true), ("gzip;q=0", false), ("*", true),
        ("*, gzip;q=0", false), ("br", false), ("", false), ("identity", false), ("GZIP", true),
        // A combining mark after `,` must not join the members: gzip is refused with q=0.
        ("gzip;q=0,\u{301}br", false),
    ])
    func acceptEncodingNegotiation(header: String, accepted: Bool) {
        #expect(Gzip.isAccepted(by: ["Accept-Encoding": header]) == accepted)
    }

    @Test func compressionRoundTrips() throws {
        let text = Array(String(repeating: "{\"firstName\":\"Rex\"},", count: 100).utf8)
        let compressed = try #require(Gzip.compress(text))
        #expect(compressed.count < text.count / 4)
        #expect(gunzip(compressed) == text)
    }

    @Test func preparedGzipIsServedOnlyWhenAccepted() throws {
        let body = Array(String(repeating: "pets ", count: 200).utf8)
        let prepared = PreparedResponse(
            headers: ["Content-Type": "text/plain"], body: body, compression: .gzipIfAccepted)
        try withServer(handler: { _ in .prepared(prepared) }) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/", headers: "Accept-Encoding: gzip, br\r\n"))
            let zipped = try client.readResponse()
            #expect(zipped.header("Content-Encoding") == "gzip")
            #expect(zipped.header("Vary") == "Accept-Encoding")
            #expect(gunzip(zipped.body) == body)
            try client.send(get("/"))
            let plain = try client.readResponse()
            #expect(plain.header("Content-Encoding") == nil)
            #expect(plain.body == body)
        }
    }

    @Test func dynamicResponsesCompressOrUseTheGivenGzipBytes() throws {
        let body = Array(String(repeating: "vets ", count: 200).utf8)
        let precompressed = try #require(Gzip.compress(body, level: 9))
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            let compression: HTTPResponse.Compression =
                request.path == "/given" ? .precompressedGzip(precompressed) : .gzipIfAccepted
            return .response(HTTPResponse(body: body, compression: compression))
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            for path in ["/given", "/live"] {
                try client.send(get(path, headers: "Accept-Encoding: gzip\r\n"))
                let response = try client.readResponse()
                #expect(response.header("Content-Encoding") == "gzip")
                #expect(gunzip(response.body) == body)
            }
            try client.send(get("/given", headers: "Accept-Encoding: identity\r\n"))
            #expect(try client.readResponse().body == body)
        }
    }
}

@Suite struct ResponseWritingTests {
    @Test func chunkedFramingAndHandlerHeaders() throws {
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { request in
            var response = HTTPResponse(
                headers: ["X-Custom": "a\r\nInjected: yes", "Content-Length": "999"], body: Array("chunky".utf8))
            response.framing = .chunked
            return .response(response)
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            let response = try client.readResponse()
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.header("Content-Length") == nil)
            #expect(response.header("Injected") == nil)
            #expect(response.header("X-Custom") == "a  Injected: yes")
            #expect(response.text == "chunky")
        }
    }

    @Test func noContentHasNoBodyOrLength() throws {
        try withServer(handler: { _ in .response(HTTPResponse(status: .noContent)) }) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/") + get("/"))
            for _ in 0..<2 {
                let response = try client.readResponse()
                #expect(response.status == 204)
                #expect(response.header("Content-Length") == nil)
            }
        }
    }

    @Test func handlerConnectionCloseClosesAfterTheResponse() throws {
        let prepared = PreparedResponse(headers: ["Connection": "close"], body: Array("x".utf8))
        try withServer(handler: { _ in .prepared(prepared) }) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/"))
            let response = try client.readResponse()
            #expect(response.headers.filter { $0.name.lowercased() == "connection" }.map(\.value) == ["close"])
            #expect(try client.ending() == .closed([]))
        }
    }

    @Test func onlyTheFirstCompletionOfADeferredReplyCounts() throws {
        let alone = DeferredReply()
        #expect(alone.wait(atMost: .zero) == nil)
        alone.complete(.response(HTTPResponse(text: "first")))
        alone.complete(.fault(.connectionReset))
        #expect(alone.wait(atMost: .zero)?.response()?.body == Array("first".utf8))
        // On the wire: completed before the connection asked for it, three times.
        let handler: @Sendable (HTTPServerRequest) -> HTTPReply = { _ in
            let reply = DeferredReply()
            reply.complete(.response(HTTPResponse(text: "first")))
            reply.complete(.response(HTTPResponse(text: "second")))
            reply.complete(.fault(.connectionReset))
            return .deferred(reply)
        }
        try withServer(handler: handler) { server in
            let client = try RawClient(port: server.port)
            try client.send(get("/") + get("/"))
            #expect(try client.readResponse().text == "first")
            #expect(try client.readResponse().text == "first")
        }
    }

    @Test func dateIsIMFFixdate() {
        #expect(DateCache.imfFixdate(epochSeconds: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(DateCache.imfFixdate(epochSeconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(DateCache.imfFixdate(epochSeconds: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
    }
}

@Suite struct HTTPDelayTests {
    @Test func samplesStayWithinTheirBounds() {
        var generator = SplitMix64(seed: 42)
        #expect(HTTPDelay.none.sample(using: &generator) == .zero)
        #expect(HTTPDelay.fixed(.milliseconds(5)).sample(using: &generator) == .milliseconds(5))
        for _ in 0..<1000 {
            let uniform = HTTPDelay.uniform(lower: .milliseconds(10), upper: .milliseconds(20)).sample(
                using: &generator)
            #expect(uniform >= .milliseconds(10) && uniform <= .milliseconds(20))
            let capped = HTTPDelay.lognormal(median: .milliseconds(50), sigma: 2, maximum: .milliseconds(60))
                .sample(using: &generator)
            #expect(capped >= .zero && capped <= .milliseconds(60))
        }
    }

    @Test func lognormalMedianIsTheMedian() {
        var generator = SplitMix64(seed: 7)
        let samples = (0..<4001).map { _ in
            HTTPDelay.lognormal(median: .milliseconds(80), sigma: 0.4).sample(using: &generator)
        }.sorted()
        let median = samples[2000]
        #expect(median > .milliseconds(72) && median < .milliseconds(88))
    }
}

@Suite struct HTTPSocketAddressTests {
    @Test func describesIPv4() {
        let address = HTTPSocketAddress(ipv4: (127, 0, 0, 1), port: 8080)
        #expect(address.description == "127.0.0.1:8080")
        #expect(!address.isIPv6)
    }
}
