import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import Testing

@testable import HTTPClient

/// Which URLs petmock's own client takes (plain http to a numeric address) and what it sends
/// for them; and the content decoding it shares with libcurl's behaviour.
@Suite struct NativeHTTPTargetTests {
    @Test(arguments: [
        ("http://127.0.0.1:8081/api/pets?page=2", "127.0.0.1:8081", "127.0.0.1:8081", "/api/pets?page=2"),
        ("HTTP://127.0.0.1/", "127.0.0.1", "127.0.0.1", "/"),
        ("http://127.0.0.1:80", "127.0.0.1:80", "127.0.0.1", "/"),
        ("http://127.0.0.1:9?q=1#frag", "127.0.0.1:9", "127.0.0.1:9", "/?q=1"),
        ("http://[::1]:8080/x", "[::1]:8080", "[::1]:8080", "/x"),
        ("http://[::1]/x#y", "[::1]", "[::1]", "/x"),
    ])
    func takesPlainHTTPToANumericAddress(url: String, key: String, host: String, origin: String) throws {
        let target = try #require(NativeHTTPTarget(url: url))
        #expect(target.key == key)
        #expect(target.hostField == host)
        #expect(target.originForm == origin)
        #expect(SocketAddress.host(of: target.address) == (host.hasPrefix("[") ? "::1" : "127.0.0.1"))
    }

    @Test(arguments: [
        "https://127.0.0.1/", "http://localhost:8080/", "http://api.example.com/", "http://user@127.0.0.1/",
        "http://127.0.0.1:0/", "http://127.0.0.1:65536/", "http://127.0.0.1:80a/", "http://[::1/", "http://::1/",
        "http://127.0.0.1/a b", "http:///x", "http://", "ftp://127.0.0.1/", "http://[127.0.0.1]/",
        // Bytes that equal `:` and `/` once 0x20 is set are not the scheme's.
        "http\u{1A}//127.0.0.1/", "http:\u{0F}/127.0.0.1/",
    ])
    func leavesEveryOtherURLToLibcurl(url: String) {
        #expect(NativeHTTPTarget(url: url) == nil)
    }

    @Test func aURLWithTheSameAuthorityKeepsTheAddressAndTakesItsOwnTarget() throws {
        let first = try #require(NativeHTTPTarget(url: "http://127.0.0.1:8081/api/pets"))
        for (url, origin) in [
            ("http://127.0.0.1:8081/api/vets?page=2#top", "/api/vets?page=2"), ("HTTP://127.0.0.1:8081", "/"),
            ("http://127.0.0.1:8081?q=1", "/?q=1"),
        ] {
            let next = try #require(first.sameAuthority(url), "\(url)")
            #expect(next.originForm == origin)
            #expect(next.key == first.key && next.hostField == first.hostField)
            #expect(SocketAddress.host(of: next.address) == "127.0.0.1")
            // The same as reading the URL whole.
            #expect(NativeHTTPTarget(url: url)?.originForm == origin)
        }
        let upper = try #require(NativeHTTPTarget(url: "http://[::ABC]:9/x"))
        #expect(upper.sameAuthority("http://[::abc]:9/y")?.originForm == "/y")
        // Another port, host or scheme, a longer port, user info, a space: not the same target.
        for url in [
            "http://127.0.0.1:8082/api", "http://127.0.0.2:8081/", "https://127.0.0.1:8081/", "http://127.0.0.1:80810/",
            "http://127.0.0.1:8081@evil/", "http://127.0.0.1:8081/a b", "http://127.0.0.1:808",
            "http\u{1A}//127.0.0.1:8081/",
        ] {
            #expect(first.sameAuthority(url) == nil, "\(url)")
        }
    }

    @Test func gzipAndDeflateDecodeWithinTheLimit() throws {
        let text = Array(String(repeating: "pets ", count: 200).utf8)
        let gzip = try #require(Gzip.compress(text))
        let zlib = try #require(Gzip.compress(text, wrapper: .zlib))
        #expect(try ContentDecoding.decode(gzip, coding: "gzip", limit: 1 << 20).get() == text)
        #expect(try ContentDecoding.decode(zlib, coding: "deflate", limit: 1 << 20).get() == text)
        // `deflate` sent raw, without the zlib wrapper, as some servers do.
        let raw = Array(zlib.dropFirst(2).dropLast(4))
        #expect(try ContentDecoding.decode(raw, coding: "deflate", limit: 1 << 20).get() == text)
        // A body that expands past the limit is refused, not kept.
        #expect(ContentDecoding.decode(gzip, coding: "gzip", limit: 100) == .failure(.tooLarge(limit: 100)))
        let truncated = Array(gzip.prefix(gzip.count / 2))
        guard case .failure(.malformed) = ContentDecoding.decode(truncated, coding: "gzip", limit: 1 << 20) else {
            Issue.record("a cut gzip body is malformed")
            return
        }
        guard case .failure(.malformed) = ContentDecoding.decode(Array("plain".utf8), coding: "gzip", limit: 99) else {
            Issue.record("bytes that are not gzip are malformed")
            return
        }
        #expect(ContentDecoding.decodable(" GZIP ") == "gzip")
        #expect(ContentDecoding.decodable("br") == nil)
        #expect(ContentDecoding.decodable("gzip, br") == nil)
    }
}

/// The request bytes petmock's own client writes, as values; and its deadlines at the end of
/// the clock.
@Suite struct LoopHTTPClientRequestTests {
    let target: NativeHTTPTarget
    let configuration = CurlTransportConfiguration(userAgent: "petmock")

    init() throws {
        target = try #require(NativeHTTPTarget(url: "http://127.0.0.1:8081/api/pets?x=1"))
    }

    @Test func writesTheRequestLineHostDefaultsAndBody() throws {
        let request = HTTPClientRequest(
            method: .post, url: "http://127.0.0.1:8081/api/pets?x=1", headers: ["X-Trace": "t1"],
            body: Array("{}".utf8))
        let bytes = try LoopHTTPClient.requestBytes(request, target, configuration: configuration)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "POST /api/pets?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nX-Trace: t1\r\nUser-Agent: petmock\r\n"
                + "Accept: */*\r\nAccept-Encoding: gzip, deflate\r\nContent-Length: 2\r\n\r\n{}")
        let own = HTTPClientRequest(url: request.url, headers: ["user-agent": "app/1", "Accept": "application/json"])
        let text = String(
            decoding: try LoopHTTPClient.requestBytes(own, target, configuration: configuration), as: UTF8.self)
        #expect(!text.contains("petmock") && !text.contains("*/*"), "the request's own fields are kept, not doubled")
    }

    @Test(arguments: [
        HTTPHeaders([("X-Evil", "a\r\nInjected: yes")]), HTTPHeaders([("X-Nul", "a\u{0}b")]),
        HTTPHeaders([("Bad Name", "x")]), HTTPHeaders([("", "x")]),
    ])
    func refusesAFieldThatCouldSplitTheRequest(headers: HTTPHeaders) {
        let request = HTTPClientRequest(url: "http://127.0.0.1:8081/", headers: headers)
        #expect(throws: HTTPClientError.self) {
            try LoopHTTPClient.requestBytes(request, target, configuration: configuration)
        }
        let method = HTTPClientRequest(method: "GE T", url: "http://127.0.0.1:8081/")
        #expect(throws: HTTPClientError.self) {
            try LoopHTTPClient.requestBytes(method, target, configuration: configuration)
        }
    }

    @Test func aDeadlinePastTheEndOfTheClockIsNever() {
        #expect(Duration.seconds(Int64.max).nanoseconds == .max)
        #expect(Duration.seconds(-1).nanoseconds == 0)
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
        #expect(LoopHTTPClient.later(.max - 5, by: 10) == .max)
        #expect(LoopHTTPClient.later(5, by: 10) == 15)
    }
}
