import HTTPCore
import Testing

@testable import HTTPClient

/// The response reader of the event-loop client, as values: what each response reads to,
/// whole and fed a byte at a time, and how each wrong one is refused.
@Suite struct HTTPResponseReaderTests {
    /// What a response read to: status, fields, body, framing and reuse, or the error.
    struct Read: Equatable {
        var status = 0
        var reason = ""
        var fields: [String] = []
        var body = ""
        var framing: HTTPResponseReader.Framing = .none
        var keepAlive = false
    }

    /// Reads `text` in pieces of `piece` bytes (0: whole), then the end of the stream when
    /// `closeAfter` says so.
    static func read(
        _ text: String, method: HTTPMethod = .get, piece: Int = 0, closeAfter: Bool = false, max: Int = 1 << 20,
        limits: HTTPResponseReader.Limits = .init()
    ) -> Result<Read, HTTPResponseError> {
        var reader = HTTPResponseReader(method: method, maxBodySize: max, limits: limits)
        let bytes = Array(text.utf8)
        let size = piece == 0 ? Swift.max(bytes.count, 1) : piece
        var complete = false
        do {
            for start in stride(from: 0, to: bytes.count, by: size) {
                let end = Swift.min(start + size, bytes.count)
                complete = try bytes[start..<end].withUnsafeBytes { try reader.read($0) }
            }
            if closeAfter { complete = try reader.readEnd() }
        } catch let error as HTTPResponseError {
            return .failure(error)
        } catch {
            Issue.record("unexpected \(error)")
        }
        guard complete, let head = reader.head else { return .failure(.malformed("incomplete")) }
        return .success(
            Read(
                status: head.status.code, reason: head.status.reasonPhrase,
                fields: head.headers.fields.map { "\($0.name): \($0.value)" },
                body: String(decoding: reader.body, as: UTF8.self), framing: head.framing, keepAlive: head.keepAlive))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        var method: HTTPMethod = .get
        var closeAfter = false
        let expected: Read
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "length", text: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello",
            expected: Read(
                status: 200, reason: "OK", fields: ["Content-Length: 5", "Content-Type: text/plain"], body: "hello",
                framing: .length(5), keepAlive: true)),
        Case(
            name: "chunked, extensions, trailers",
            text: "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3;name=value\r\nabc\r\nA \r\n0123456789\r\n0\r\nChecksum: 1\r\n\r\n",
            expected: Read(
                status: 201, reason: "Created", fields: ["Transfer-Encoding: chunked"], body: "abc0123456789",
                framing: .chunked, keepAlive: true)),
        Case(
            name: "gzip then chunked",
            text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
            expected: Read(
                status: 200, reason: "OK", fields: ["Transfer-Encoding: gzip, chunked"], body: "x", framing: .chunked,
                keepAlive: true)),
        Case(
            name: "until close", text: "HTTP/1.1 200 OK\r\n\r\nall of it", closeAfter: true,
            expected: Read(status: 200, reason: "OK", body: "all of it", framing: .untilClose)),
        Case(
            name: "a final coding other than chunked", text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz",
            closeAfter: true,
            expected: Read(
                status: 200, reason: "OK", fields: ["Transfer-Encoding: gzip"], body: "zz", framing: .untilClose)),
        Case(
            name: "HEAD has no body", text: "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", method: .head,
            expected: Read(status: 200, reason: "OK", fields: ["Content-Length: 99"], keepAlive: true)),
        Case(
            name: "204", text: "HTTP/1.1 204 No Content\r\n\r\n",
            expected: Read(status: 204, reason: "No Content", keepAlive: true)),
        Case(
            name: "304 with a length", text: "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
            expected: Read(status: 304, reason: "Not Modified", fields: ["Content-Length: 10"], keepAlive: true)),
        Case(
            name: "100 Continue first",
            text: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            expected: Read(
                status: 200, reason: "OK", fields: ["Content-Length: 2"], body: "ok", framing: .length(2),
                keepAlive: true)),
        Case(
            name: "Connection: close", text: "HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n",
            expected: Read(
                status: 200, reason: "OK", fields: ["Connection: Close", "Content-Length: 0"], framing: .length(0))),
        Case(
            name: "HTTP/1.0 closes by default", text: "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n1",
            expected: Read(status: 200, reason: "OK", fields: ["Content-Length: 1"], body: "1", framing: .length(1))),
        Case(
            name: "HTTP/1.0 keep-alive",
            text: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\n1",
            expected: Read(
                status: 200, reason: "OK", fields: ["Connection: keep-alive", "Content-Length: 1"], body: "1",
                framing: .length(1), keepAlive: true)),
        Case(
            name: "bare LF, no reason, folded value, equal lengths",
            text: "HTTP/1.1 404\nX-Long: one\n  two\nContent-Length: 2, 2\n\nno",
            expected: Read(
                status: 404, reason: "", fields: ["X-Long: one two", "Content-Length: 2, 2"], body: "no",
                framing: .length(2), keepAlive: true)),
    ]

    @Test(arguments: cases) func readsWholeAndByteByByte(_ example: Case) throws {
        let whole = Self.read(example.text, method: example.method, closeAfter: example.closeAfter)
        #expect(whole == .success(example.expected))
        let split = Self.read(example.text, method: example.method, piece: 1, closeAfter: example.closeAfter)
        #expect(split == whole, "the same, a byte at a time")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let text: String
        var closeAfter = false
        var max = 1 << 20
        var limits = HTTPResponseReader.Limits()
        let expected: HTTPResponseError
        var testDescription: String { expected.description }
    }

    static let refusals: [Refusal] = {
        var small = HTTPResponseReader.Limits()
        small.headBytes = 64
        small.fields = 2
        small.lineBytes = 16
        return [
            Refusal(
                text: "HTTP/2.0 200 OK\r\n\r\n",
                expected: .malformed("the status line says HTTP/2.0; expected HTTP/1.x")),
            Refusal(
                text: "HTTX/1.1 200 OK\r\n\r\n",
                expected: .malformed("the status line is 'HTTX/1.1 200 OK'; expected 'HTTP/1.1 200 Reason'")),
            Refusal(
                text: "HTTP/1.1 099 Low\r\n\r\n", expected: .malformed("status 99 is not a status (100 to 999)")),
            Refusal(
                text: "HTTP/1.1 101 Switching Protocols\r\n\r\n",
                expected: .malformed("status 101 (Switching Protocols) to a request that asked for no upgrade")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
                expected: .malformed("line 2 has a field name that is not a token: 'Bad Name'")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nNo colon\r\n\r\n",
                expected: .malformed("line 2 is not a field (no name before ':'): 'No colon'")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nX: a\u{1}b\r\n\r\n",
                expected: .malformed("line 2 has a control byte in a field value: ' a\\u0001b'")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
                expected: .malformed("Content-Length values differ: '5' and '6'")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                expected: .malformed("Content-Length is '-1'; expected a whole number of bytes")),
            Refusal(text: "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", max: 10, expected: .tooLarge(limit: 10)),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n",
                max: 10, expected: .tooLarge(limit: 10)),
            Refusal(
                text: "HTTP/1.1 200 OK\r\n\r\n12345678901", closeAfter: true, max: 10, expected: .tooLarge(limit: 10)),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1234567890abcdef1\r\n",
                expected: .malformed("a chunk size has more than 15 hex digits")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                expected: .malformed("the chunk-size line 'zz\\u000d' does not start with hex digits")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy",
                expected: .malformed("a chunk's data is not followed by CRLF")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n12", expected: .bytesAfterResponse),
            // Found by the fuzz target (http-response-reader).
            Refusal(
                text: "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Tyep: text/plair\r\n\r\nhello",
                expected: .bytesAfterResponse),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n123", closeAfter: true,
                expected: .truncated(whileReading: "the body", bodyBytes: 3)),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nContent", closeAfter: true,
                expected: .truncated(whileReading: "the head", bodyBytes: 0)),
            Refusal(text: "", closeAfter: true, expected: .noResponse),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nX-Padding: " + String(repeating: "p", count: 80) + "\r\n\r\n", limits: small,
                expected: .headTooLarge("more than 64 bytes")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: small,
                expected: .headTooLarge("more than 2 fields")),
            Refusal(
                text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 40),
                limits: small, expected: .malformed("a chunk-size line or the trailers run past 16 bytes")),
        ]
    }()

    @Test(arguments: refusals) func refusesWithWhatAndWhere(_ refusal: Refusal) {
        let whole = Self.read(refusal.text, closeAfter: refusal.closeAfter, max: refusal.max, limits: refusal.limits)
        #expect(whole == .failure(refusal.expected))
        let split = Self.read(
            refusal.text, piece: 1, closeAfter: refusal.closeAfter, max: refusal.max, limits: refusal.limits)
        #expect(split == .failure(refusal.expected), "the same, a byte at a time")
    }

    @Test func aFailedReaderStaysFailed() throws {
        var reader = HTTPResponseReader(method: .get, maxBodySize: 10)
        let bad = Array("HTTP/9.9 200 OK\r\n\r\n".utf8)
        #expect(throws: HTTPResponseError.self) { try bad.withUnsafeBytes { try reader.read($0) } }
        let good = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)
        #expect(throws: HTTPResponseError.self) { try good.withUnsafeBytes { try reader.read($0) } }
        #expect(throws: HTTPResponseError.self) { try reader.readEnd() }
    }
}
