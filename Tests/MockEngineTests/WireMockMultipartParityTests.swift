import HTTPCore
import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

/// `multipartPatterns`. Cases carried over as data from WireMock's tests (Apache-2.0):
/// `MultipartBodyMatchingAcceptanceTest` (requests rebuilt as the bodies its HTTP client sends)
/// and `MultipartValuePatternTest` (the JSON forms), in `src/test/java/com/github/tomakehurst/wiremock/`.
@Suite struct WireMockMultipartParityTests {
    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let patterns: String
        var method: HTTPMethod = .post
        let contentType: String
        let body: [UInt8]
        let matches: Bool

        var description: String { source }
    }

    /// A multipart body: each part's header lines and body, closed by the final delimiter.
    static func body(_ boundary: String, _ parts: [([String], String)], closing: String = "--\r\n") -> [UInt8] {
        var text = ""
        for (headers, body) in parts {
            text += "--\(boundary)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n" + body + "\r\n"
        }
        return Array((text + "--\(boundary)" + closing).utf8)
    }

    static let textAndFile =
        #"[{"name": "text", "bodyPatterns": [{"contains": "hello"}]}, {"name": "file", "bodyPatterns": [{"binaryEqualTo": "QUJDRA=="}]}]"#
    static let textAndFileParts: [([String], String)] = [
        (["Content-Disposition: form-data; name=\"text\"", "Content-Type: text/plain; charset=ISO-8859-1"], "hello"),
        (
            [
                "Content-Disposition: form-data; name=\"file\"; filename=\"file\"",
                "Content-Type: application/octet-stream",
            ], "ABCD"
        ),
    ]
    static let camelCased =
        #"[{"name": "field1", "bodyPatterns": [{"contains": "hello"}]}, {"name": "field2", "bodyPatterns": [{"contains": "world"}]}]"#
    static let camelCasedBody = body(
        "uuid:7d3c",
        [
            (["Content-Disposition: form-data; name=\"field1\""], "hello"),
            (["Content-Disposition: form-data; name=\"field2\""], "world"),
        ], closing: "--")
    static let soap =
        "<soap:Envelope xmlns:soap=\"http://www.w3.org/2003/05/soap-envelope\"><soap:Body/></soap:Envelope>"

    static let cases: [Case] = [
        Case(
            source: "acceptsAMultipartRequestContainingATextAndAFilePart", patterns: textAndFile,
            contentType: "multipart/form-data; boundary=b1", body: body("b1", textAndFileParts), matches: true),
        Case(
            source: "handlesAbsenceOfPartsInAMultipartRequest",
            patterns: #"[{"name": "bits", "bodyPatterns": [{"matches": ".*"}]}]"#,
            contentType: "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW", body: [],
            matches: false),
        Case(
            source: "acceptsAMultipartMixedRequestContainingATextAndAFilePart", patterns: textAndFile,
            contentType: "multipart/mixed; boundary=b2", body: body("b2", textAndFileParts), matches: true),
        Case(
            source: "acceptsAMultipartRelatedRequestContainingATextAndAFilePart", patterns: textAndFile,
            contentType: "multipart/related; boundary=b3", body: body("b3", textAndFileParts), matches: true),
        Case(
            source: "multipartBodiesCanBeMatchedWhenStubsWithOtherBodyMatchTypesArePresent",
            patterns: #"[{"headers": {"Content-Disposition": {"contains": "wiremocktest"}}}]"#,
            contentType: "multipart/form-data; boundary=b4",
            body: body(
                "b4",
                [(["Content-Disposition: form-data; name=\"wiremocktest\"", "Content-Type: text/plain"], "Whatever")]),
            matches: true),
        Case(
            source: "handlesLargeMultipartBody",
            patterns: #"[{"headers": {"Content-Disposition": {"contains": "vlarge"}}}]"#,
            contentType: "multipart/form-data; boundary=b5",
            body: body(
                "b5",
                [(["Content-Disposition: form-data; name=\"vlarge\""], String(repeating: "a1B2c3", count: 50_000))]),
            matches: true),
        Case(
            source: "acceptsAMultipartRequestWithCamelcasedContentTypeInformation", patterns: camelCased,
            contentType: "Multipart/Form-Data; boundary=\"uuid:7d3c\"", body: camelCasedBody, matches: true),
        Case(
            source: "acceptsAMultipartRequestWithCamelcasedContentTypeInformationPrefixedWithSpaces",
            patterns: camelCased, contentType: "    Multipart/Form-Data; boundary=\"uuid:7d3c\"", body: camelCasedBody,
            matches: true),
        Case(
            source: "acceptsAMultipartRelatedSOAPWithAttachmentRequest",
            patterns:
                #"[{"headers": {"content-type": {"equalTo": "application/xop+xml; type=\"application/soap+xml\""}}, "bodyPatterns": [{"equalTo": "\#(soap.replacingQuotes)"}]}, {"headers": {"content-type": {"equalTo": "text/plain"}, "content-id": {"equalTo": "<ref-to-attachment@some.domain.org>"}}, "bodyPatterns": [{"equalTo": "some text/plain content"}]}]"#,
            contentType: "multipart/related; boundary=b6",
            body: body(
                "b6",
                [
                    (["Content-Type: application/xop+xml; type=\"application/soap+xml\""], soap),
                    (
                        ["Content-Type: text/plain", "content-id: <ref-to-attachment@some.domain.org>"],
                        "some text/plain content"
                    ),
                ]), matches: true),
        Case(
            source: "acceptsQueryMethodRequestWithMultipartBody",
            patterns:
                #"[{"name": "filters", "bodyPatterns": [{"contains": "active"}]}, {"name": "data", "bodyPatterns": [{"contains": "SEARCH"}]}]"#,
            method: HTTPMethod(rawValue: "QUERY"), contentType: "multipart/form-data; boundary=b7",
            body: body(
                "b7",
                [
                    (["Content-Disposition: form-data; name=\"filters\""], "active users"),
                    (["Content-Disposition: form-data; name=\"data\""], "SEARCH DATA"),
                ]), matches: true),
        // petmock's own edges: ALL, a wrong part, a body that is not multipart, a malformed one.
        Case(
            source: "ALL: every part must match",
            patterns: #"[{"matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "form-data"}}}]"#,
            contentType: "multipart/form-data; boundary=b8", body: body("b8", textAndFileParts), matches: true),
        Case(
            source: "ALL: one part differs",
            patterns: #"[{"matchingType": "ALL", "bodyPatterns": [{"equalTo": "hello"}]}]"#,
            contentType: "multipart/form-data; boundary=b9", body: body("b9", textAndFileParts), matches: false),
        Case(
            source: "a part body differs", patterns: #"[{"name": "text", "bodyPatterns": [{"contains": "bye"}]}]"#,
            contentType: "multipart/form-data; boundary=c1", body: body("c1", textAndFileParts), matches: false),
        Case(
            source: "fileName",
            patterns: #"[{"fileName": "file", "headers": {"Content-Type": {"contains": "octet"}}}]"#,
            contentType: "multipart/form-data; boundary=c2", body: body("c2", textAndFileParts), matches: true),
        Case(
            source: "not a multipart body", patterns: #"[{"name": "text"}]"#, contentType: "text/plain",
            body: Array("--b\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nx\r\n--b--".utf8), matches: false),
        Case(
            source: "no closing delimiter", patterns: #"[{"name": "text"}]"#,
            contentType: "multipart/form-data; boundary=b",
            body: Array("--b\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nx".utf8), matches: false),
        Case(
            source: "a header line without a colon", patterns: #"[{"name": "text"}]"#,
            contentType: "multipart/form-data; boundary=b",
            body: Array("--b\r\nContent-Disposition form-data; name=\"text\"\r\n\r\nx\r\n--b--".utf8), matches: false),
    ]

    static func pattern(_ patterns: String) throws -> CompiledRequestPattern {
        var decoder = MappingDecoder(file: "m.json")
        let json = try JSONValue(parsing: #"{"urlPath": "/multipart", "multipartPatterns": \#(patterns)}"#)
        let decoded = decoder.decodeRequest(json, at: .root)
        let pattern = try #require(decoded, "\(decoder.problems)")
        #expect(decoder.problems.isEmpty, "\(decoder.problems)")
        var again = MappingDecoder(file: "again.json")
        #expect(again.decodeRequest(pattern.json, at: .root) == pattern, "round trip")
        var problems: [PatternProblem] = []
        return try #require(CompiledRequestPattern.compile(pattern, problems: &problems))
    }

    @Test(arguments: cases)
    func wireMockCase(_ example: Case) throws {
        let pattern = try Self.pattern(example.patterns)
        let request = MatchableRequest(
            method: example.method, target: "/multipart", headers: HTTPHeaders([("Content-Type", example.contentType)]),
            body: example.body)
        #expect(pattern.matches(request) == example.matches, "\(example.source)")
        #expect(pattern.evaluate(request).allSatisfy(\.matched) == example.matches, "\(example.source)")
    }

    /// `MultipartValuePatternTest`'s JSON forms decode (and `name` stands for the
    /// `Content-Disposition` criterion WireMock's builder writes).
    @Test(arguments: [
        #"{"matchingType": "ANY"}"#,
        #"{"matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "name=\"part1\""}}}"#,
        #"{"matchingType": "ANY", "bodyPatterns": [{"equalToJson": {"someKey": "someValue"}}]}"#,
        #"{"matchingType": "ANY", "headers": {"Content-Disposition": {"contains": "name=\"part1\""}, "Content-Type": {"contains": "application/json"}}, "bodyPatterns": [{"equalToJson": {"someKey": "someValue"}}]}"#,
        #"{"name": "my_part_name", "matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "name=\"file\""}, "Content-Type": {"equalTo": "application/octet-stream"}}, "bodyPatterns": [{"binaryEqualTo": "RG9jdW1lbnQgYm9keSBjb250ZW50cw=="}]}"#,
    ])
    func wireMockJSONFormsDecode(json: String) throws {
        _ = try Self.pattern("[\(json)]")
    }

    @Test func theNearMissReportSaysWhichPartDiffersInWhat() throws {
        let pattern = try Self.pattern(#"[{"name": "text", "bodyPatterns": [{"contains": "bye"}]}]"#)
        let request = MatchableRequest(
            method: .post, target: "/multipart",
            headers: HTTPHeaders([("Content-Type", "multipart/form-data; boundary=b1")]),
            body: Self.body("b1", Self.textAndFileParts))
        let criterion = try #require(pattern.evaluate(request).last)
        #expect(criterion.name == "multipart[0]")
        #expect(criterion.expected == "a part with name 'text', body contains 'bye'")
        #expect(
            criterion.actual == "parts: 'text' differs in body; 'file' differs in header 'Content-Disposition', body")
        #expect(criterion.distance == 0.5)
        let plain = MatchableRequest(method: .post, target: "/multipart", headers: HTTPHeaders(), body: [])
        #expect(pattern.evaluate(plain).last?.actual == "not a multipart body (or a malformed one)")
    }

    @Test(arguments: [
        (#"[{"matchingType": "SOME"}]"#, "$.multipartPatterns[0].matchingType"),
        (#"[{"partName": "x"}]"#, "$.multipartPatterns[0].partName"),
        (#"{"name": "x"}"#, "$.multipartPatterns"),
    ])
    func badMultipartPatternsAreRefused(json: String, path: String) throws {
        var decoder = MappingDecoder(file: "m.json")
        let mapping = try JSONValue(parsing: #"{"multipartPatterns": \#(json)}"#)
        let decoded = decoder.decodeRequest(mapping, at: .root)
        #expect(decoded == nil)
        #expect(decoder.problems.map(\.path) == [path])
    }

    /// Bounds: too many parts is malformed (no match), never unbounded work.
    @Test func tooManyPartsIsNoMatch() {
        let parts = Array(repeating: (["Content-Disposition: form-data; name=\"p\""], "x"), count: 201)
        #expect(
            MultipartParser.parse(contentType: "multipart/form-data; boundary=z", body: Self.body("z", parts)) == nil)
        let fewer = Array(parts.prefix(200))
        #expect(
            MultipartParser.parse(contentType: "multipart/form-data; boundary=z", body: Self.body("z", fewer))?.count
                == 200)
    }

    /// Found by the fuzz target: a header value starting with a combining mark after `: `. As
    /// Characters the space and the mark are one, so trimming must go by bytes.
    @Test func aCombiningMarkAfterTheColonIsNotTrimmedWithTheSpace() throws {
        let body = Array("--p\r\nX: \u{0747}y \r\n\r\nz\r\n--p--".utf8)
        let parts = try #require(MultipartParser.parse(contentType: "multipart/mixed; boundary=p", body: body))
        #expect(parts.first?.headers["X"] == "\u{0747}y")
        #expect(MultipartParser.parse(contentType: " multipart/mixed; boundary= \"p\" ", body: body) == parts)
    }

}

extension String {
    /// The text with `"` escaped for a JSON string.
    fileprivate var replacingQuotes: String { String(flatMap { $0 == "\"" ? ["\\", "\""] : [$0] }) }
}
