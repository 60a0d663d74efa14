import HTTPCore
import Testing

@testable import HTTPServerKit

/// Parses `text` whole and also one byte at a time, checks both agree, and returns the
/// events with body pieces merged.
func parseBothWays(
    _ text: String, limits: HTTPParserLimits = HTTPParserLimits()
) throws(HTTPParserError)
    -> [HTTPRequestParser.Output]
{
    let bytes = Array(text.utf8)
    var whole = HTTPRequestParser(limits: limits)
    let wholeResult = Result { () throws(HTTPParserError) in merged(try whole.parseAll(bytes)) }
    var single = HTTPRequestParser(limits: limits)
    let singleResult = Result { () throws(HTTPParserError) in
        var outputs: [HTTPRequestParser.Output] = []
        for byte in bytes { outputs += try single.parseAll([byte]) }
        outputs += try single.parseAll([])
        return merged(outputs)
    }
    #expect(wholeResult == singleResult, "whole and byte-at-a-time parsing differ")
    return try wholeResult.get()
}

private func merged(_ outputs: [HTTPRequestParser.Output]) -> [HTTPRequestParser.Output] {
    var result: [HTTPRequestParser.Output] = []
    for output in outputs {
        if case .body(let more) = output, case .body(let earlier) = result.last {
            result[result.count - 1] = .body(earlier + more)
        } else if case .body(let bytes) = output, bytes.isEmpty {
            continue
        } else {
            result.append(output)
        }
    }
    return result
}

extension HTTPRequestParser.Output {
    var parsedHead: HTTPParsedHead? {
        if case .head(let head) = self { return head }
        return nil
    }
    var bodyText: String? {
        if case .body(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }
}

@Suite struct HTTPRequestParserTests {
    @Test func simpleGetHasHeadAndEnd() throws {
        let outputs = try parseBothWays("GET /pets?limit=2 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
        #expect(outputs.count == 2)
        let parsed = try #require(outputs.first?.parsedHead)
        #expect(parsed.head.method == .get)
        #expect(parsed.head.target == "/pets?limit=2")
        #expect(parsed.head.path == "/pets")
        #expect(parsed.head.version == .http11)
        #expect(parsed.head.headers["host"] == "example.com")
        #expect(parsed.bodyFraming == .none)
        #expect(parsed.keepAlive)
        #expect(!parsed.expectsContinue)
        #expect(outputs.last == .end)
    }

    @Test func headersKeepOrderSpellingAndTrimValues() throws {
        let outputs = try parseBothWays("GET / HTTP/1.1\r\nHost: h\r\nX-B:  two  \r\nx-a:\tone\r\nX-B: three\r\n\r\n")
        let head = try #require(outputs.first?.parsedHead).head
        #expect(head.headers.fields.map(\.name) == ["Host", "X-B", "x-a", "X-B"])
        #expect(head.headers.values(name: "x-b") == ["two", "three"])
        #expect(head.headers["X-A"] == "one")
    }

    @Test func contentLengthBody() throws {
        let outputs = try parseBothWays("POST /pets HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n{\"a\":\"bc\"}\n")
        #expect(outputs.first?.parsedHead?.bodyFraming == .length(11))
        #expect(outputs.dropFirst().first?.bodyText == "{\"a\":\"bc\"}\n")
        #expect(outputs.last == .end)
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let text =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1A \r\n, chunked world, 26 bytes.\r\n0\r\nX-Trailer: t\r\n\r\n"
        let outputs = try parseBothWays(text)
        #expect(outputs.first?.parsedHead?.bodyFraming == .chunked)
        #expect(outputs.dropFirst().first?.bodyText == "hello, chunked world, 26 bytes.")
        #expect(outputs.last == .end)
    }

    @Test func pipelinedRequestsComeOutInOrder() throws {
        let text =
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi"
            + "GET /c HTTP/1.1\r\nHost: h\r\n\r\n"
        let outputs = try parseBothWays(text)
        #expect(outputs.compactMap(\.parsedHead).map(\.head.target) == ["/a", "/b", "/c"])
        #expect(outputs.filter { $0 == .end }.count == 3)
        #expect(outputs.compactMap(\.bodyText) == ["hi"])
    }

    @Test func absoluteFormTargetIsKept() throws {
        let outputs = try parseBothWays(
            "GET http://api.example.com:8080/pets?x=1 HTTP/1.1\r\nHost: api.example.com\r\n\r\n")
        let head = try #require(outputs.first?.parsedHead).head
        #expect(head.target == "http://api.example.com:8080/pets?x=1")
        #expect(head.path == "/pets")
        #expect(head.query == "x=1")
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, CLOSE\r\n\r\n", false),
    ])
    func keepAliveFollowsVersionAndConnection(text: String, keepAlive: Bool) throws {
        let outputs = try parseBothWays(text)
        #expect(outputs.first?.parsedHead?.keepAlive == keepAlive)
    }

    @Test func expectContinueIsNotedOnlyWithABody() throws {
        let withBody = try parseBothWays(
            "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(withBody.first?.parsedHead?.expectsContinue == true)
        let withoutBody = try parseBothWays("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n")
        #expect(withoutBody.first?.parsedHead?.expectsContinue == false)
    }

    @Test func emptyLinesBeforeTheRequestLineAreIgnored() throws {
        let outputs = try parseBothWays("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outputs.first?.parsedHead?.head.target == "/")
    }

    @Test func bareLineFeedsAreAccepted() throws {
        let outputs = try parseBothWays("GET / HTTP/1.1\nHost: h\n\n")
        #expect(outputs.first?.parsedHead?.head.headers["host"] == "h")
    }

    @Test func equalContentLengthsAreAccepted() throws {
        let outputs = try parseBothWays(
            "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok")
        #expect(outputs.first?.parsedHead?.bodyFraming == .length(2))
    }

    @Test func zeroContentLengthHasNoBody() throws {
        let outputs = try parseBothWays("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        #expect(outputs.count == 2)
    }

    @Test func parserStaysFailedAfterAnError() throws {
        var parser = HTTPRequestParser()
        #expect(throws: HTTPParserError.missingHost) { try parser.parseAll(Array("GET / HTTP/1.1\r\n\r\n".utf8)) }
        #expect(throws: HTTPParserError.missingHost) {
            try parser.parseAll(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        }
    }
}
