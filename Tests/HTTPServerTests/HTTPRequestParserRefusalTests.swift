import HTTPCore
import Testing

@testable import HTTPServerKit

/// One malformed request and the refusal it must get.
struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var error: HTTPParserError
    var status: Int
    var testDescription: String { name }
}

let smallLimits = HTTPParserLimits(maxRequestLineLength: 64, maxHeaderSize: 128, maxBodySize: 16)

let refusals: [Refusal] = [
    Refusal(
        name: "request line without target", text: "GET\r\nHost: h\r\n\r\n",
        error: .invalidRequestLine(found: "GET"), status: 400),
    Refusal(
        name: "two spaces in request line", text: "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
        error: .invalidRequestLine(found: "GET  / HTTP/1.1"), status: 400),
    Refusal(
        name: "method with a separator", text: "GE(T / HTTP/1.1\r\nHost: h\r\n\r\n",
        error: .invalidMethod(found: "GE(T"), status: 400),
    Refusal(
        name: "target with a control byte", text: "GET /a\u{7F}b HTTP/1.1\r\nHost: h\r\n\r\n",
        error: .invalidTarget(found: "/a?b"), status: 400),
    Refusal(
        name: "malformed version", text: "GET / HTTP/1.x\r\nHost: h\r\n\r\n",
        error: .invalidVersion(found: "HTTP/1.x"), status: 400),
    Refusal(
        name: "unsupported version", text: "GET / HTTP/2.0\r\nHost: h\r\n\r\n",
        error: .unsupportedVersion(found: "HTTP/2.0"), status: 505),
    Refusal(
        name: "header without colon", text: "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n",
        error: .invalidHeaderName(line: 3, found: "NoColon"), status: 400),
    Refusal(
        name: "white space before colon", text: "GET / HTTP/1.1\r\nHost : h\r\n\r\n",
        error: .invalidHeaderName(line: 2, found: "Host : h"), status: 400),
    Refusal(
        name: "NUL in header value", text: "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n",
        error: .invalidHeaderValue(line: 3, name: "X"), status: 400),
    Refusal(
        name: "obs-fold", text: "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n  folded\r\n\r\n",
        error: .obsoleteLineFolding(line: 4), status: 400),
    Refusal(
        name: "bare CR", text: "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n",
        error: .bareCarriageReturn(line: 2), status: 400),
    Refusal(name: "missing Host", text: "GET / HTTP/1.1\r\n\r\n", error: .missingHost, status: 400),
    Refusal(
        name: "two Host headers", text: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", error: .multipleHosts,
        status: 400),
    Refusal(
        name: "Host with a space", text: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", error: .invalidHost(found: "a b"),
        status: 400),
    Refusal(
        name: "Host with a slash", text: "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", error: .invalidHost(found: "a/b"),
        status: 400),
    Refusal(
        name: "Host with userinfo", text: "GET / HTTP/1.1\r\nHost: u@h\r\n\r\n", error: .invalidHost(found: "u@h"),
        status: 400),
    Refusal(
        name: "Host with a non-numeric port", text: "GET / HTTP/1.1\r\nHost: h:8o\r\n\r\n",
        error: .invalidHost(found: "h:8o"), status: 400),
    Refusal(
        name: "Host on HTTP/1.0 is checked too", text: "GET / HTTP/1.0\r\nHost: a\tb\r\n\r\n",
        error: .invalidHost(found: "a?b"), status: 400),
    Refusal(
        name: "Host with an unclosed IP literal", text: "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n",
        error: .invalidHost(found: "[::1"), status: 400),
    Refusal(
        name: "two Host headers, one empty", text: "GET / HTTP/1.1\r\nHost:\r\nHost: h\r\n\r\n",
        error: .multipleHosts, status: 400),
    Refusal(
        name: "Content-Length and Transfer-Encoding",
        text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        error: .contentLengthWithTransferEncoding, status: 400),
    Refusal(
        name: "differing Content-Length headers",
        text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
        error: .conflictingContentLengths(found: ["3", "4"]), status: 400),
    Refusal(
        name: "differing Content-Length list", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 4\r\n\r\n",
        error: .conflictingContentLengths(found: ["3", "4"]), status: 400),
    Refusal(
        name: "non-numeric Content-Length", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\n",
        error: .invalidContentLength(found: "+3"), status: 400),
    Refusal(
        name: "invalid chunk size",
        text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
        error: .invalidChunkSize(found: "z"), status: 400),
    Refusal(
        name: "chunk data without CRLF",
        text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n",
        error: .invalidChunkTerminator, status: 400),
    Refusal(
        name: "chunked twice",
        text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
        error: .invalidTransferEncoding(found: "chunked, chunked"), status: 400),
    Refusal(
        name: "Transfer-Encoding on HTTP/1.0", text: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        error: .invalidTransferEncoding(found: "chunked"), status: 400),
    Refusal(
        name: "unsupported Transfer-Encoding",
        text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        error: .unsupportedTransferEncoding(found: "gzip, chunked"), status: 501),
    Refusal(
        name: "request line over the limit",
        text: "GET /\(String(repeating: "a", count: 60)) HTTP/1.1\r\nHost: h\r\n\r\n",
        error: .requestLineTooLong(limit: 64), status: 414),
    Refusal(
        name: "request line over the limit, unterminated", text: "GET /\(String(repeating: "a", count: 100))",
        error: .requestLineTooLong(limit: 64), status: 414),
    Refusal(
        name: "headers over the limit",
        text: "GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "X-Padding: 0123456789\r\n", count: 6) + "\r\n",
        error: .headersTooLarge(limit: 128), status: 431),
    Refusal(
        name: "declared body over the limit", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n",
        error: .bodyTooLarge(limit: 16, length: 17), status: 413),
    Refusal(
        name: "chunked body over the limit",
        text:
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n1\r\n!\r\n0\r\n\r\n",
        error: .bodyTooLarge(limit: 16, length: nil), status: 413),
]

@Suite struct HTTPRequestParserRefusalTests {
    @Test(arguments: refusals)
    func refusesWithItsStatus(_ refusal: Refusal) {
        #expect(throws: refusal.error) { try parseBothWays(refusal.text, limits: smallLimits) }
        #expect(refusal.error.status.code == refusal.status)
    }

    @Test func defaultLimitsAreEightAndSixtyFourKibibytes() {
        let limits = HTTPParserLimits()
        #expect(limits.maxRequestLineLength == 8192)
        #expect(limits.maxHeaderSize == 65536)
        let longest = "GET /" + String(repeating: "a", count: 8192 - 14) + " HTTP/1.1"
        #expect(longest.utf8.count == 8192)
        #expect(throws: Never.self) { try parseBothWays(longest + "\r\nHost: h\r\n\r\n") }
        #expect(throws: HTTPParserError.requestLineTooLong(limit: 8192)) {
            try parseBothWays("GET /a" + String(repeating: "a", count: 8192 - 14) + " HTTP/1.1\r\nHost: h\r\n\r\n")
        }
    }

    @Test(arguments: [
        "h", "example.com", "example.com:8080", "127.0.0.1:65535", "[::1]", "[::1]:8080", "[v1.fe]", "a-b_c~d",
        "%41b", "h:", "", "x!$&'()*+,;=y",
    ])
    func acceptsAValidHost(_ host: String) throws {
        let events = try parseBothWays("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        guard case .head(let parsed)? = events.first else {
            Issue.record("no head for Host '\(host)'")
            return
        }
        #expect(parsed.head.headers["Host"] == host)
    }

    @Test(arguments: ["a b", "a/b", "a\\b", "a?b", "a#b", "h:123456", "[]", "[::1]x", "%4", "%zz", "caf\u{E9}"])
    func refusesAnInvalidHost(_ host: String) {
        #expect(throws: HTTPParserError.self) { try parseBothWays("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") }
        #expect(
            throws: HTTPParserError.self, "absolute-form does not excuse an invalid Host",
            performing: { try parseBothWays("GET http://h/ HTTP/1.1\r\nHost: \(host)\r\n\r\n") })
    }

    @Test func errorMessagesNameTheBadValue() {
        #expect(HTTPParserError.invalidContentLength(found: "+3").description.contains("'+3'"))
        #expect(HTTPParserError.unsupportedVersion(found: "HTTP/2.0").description.contains("'HTTP/2.0'"))
    }
}
