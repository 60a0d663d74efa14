import HTTPCore
import Testing

@testable import HTTPHandlerKit
@testable import HTTPServerKit

/// A head laid out once with varying values (`PreparedHead`) writes, per response, exactly the
/// bytes a response prepared whole writes: for each form, with the notes the connection reads.
@Suite struct PreparedHeadTests {
    /// A response shape, the indices whose values vary, and the values one response gives them.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        var status = HTTPStatus.ok
        var variableStatus = false
        let fields: [(String, String)]
        let variable: [Int]
        let values: [String]
        var reason: String?
        var body = Array(#"{"id":"42"}"#.utf8)
        var compression = HTTPResponse.Compression.identity
    }

    static let cases: [Case] = [
        Case(
            description: "one varying field among fixed ones",
            fields: [("Content-Type", "application/json"), ("Location", "/users/{{id}}"), ("Matched-Stub-Id", "abc")],
            variable: [1], values: ["/users/42"]),
        Case(
            description: "several varying fields, first and last",
            fields: [("X-First", "{{a}}"), ("Cache-Control", "no-store"), ("X-Last", "{{b}}")],
            variable: [0, 2], values: ["alpha", "a much longer value than its template"]),
        Case(
            description: "a varying value with CR, LF and NUL is sanitised as before",
            fields: [("X-Echo", "{{x}}")], variable: [0], values: ["a\r\nInjected: 1\u{0}z"]),
        Case(
            description: "a varying reason phrase", status: HTTPStatus(code: 201, reasonPhrase: "Made"),
            variableStatus: true, fields: [("Content-Type", "text/plain")], variable: [], values: [],
            reason: "Made user 42"),
        Case(
            description: "framing fields dropped, Date and a closing Connection noted",
            fields: [
                ("Content-Length", "999"), ("Transfer-Encoding", "chunked"), ("Date", "Tue, 01 Dec 2026 00:00:00 GMT"),
                ("Connection", "close"), ("X-V", "{{v}}"),
            ],
            variable: [4], values: ["v"]),
        Case(
            description: "gzip offered: Vary added, Content-Encoding replaced in the gzip form",
            fields: [("Content-Type", "application/json"), ("Content-Encoding", "br"), ("X-Id", "{{id}}")],
            variable: [2], values: ["42"], body: Array(String(repeating: #"{"name":"Rex"},"#, count: 100).utf8),
            compression: .gzipIfAccepted),
        Case(
            description: "a Vary of its own is kept, none added",
            fields: [("Vary", "Origin"), ("X-Id", "{{id}}")], variable: [1], values: ["7"],
            compression: .precompressedGzip([1, 2, 3])),
        Case(
            description: "204 has no Content-Length", status: HTTPStatus(code: 204), fields: [("X-Id", "{{id}}")],
            variable: [0], values: ["1"], body: []),
        Case(
            description: "204 given a body sends none", status: HTTPStatus(code: 204), fields: [("X-Id", "{{id}}")],
            variable: [0], values: ["1"]),
        Case(
            description: "304 given a body and gzip sends none in either form", status: HTTPStatus(code: 304),
            fields: [("ETag", "{{tag}}")], variable: [0], values: ["\"v1\""], compression: .gzipIfAccepted),
        Case(
            description: "an empty varying value and a long body length", fields: [("X-Empty", "{{e}}")],
            variable: [0], values: [""], body: [UInt8](repeating: 65, count: 123_456)),
    ]

    static func response(_ testCase: Case) -> HTTPResponse {
        var fields = testCase.fields.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }
        for (index, value) in zip(testCase.variable, testCase.values) { fields[index].value = value }
        let status = testCase.reason.map { HTTPStatus(code: testCase.status.code, reasonPhrase: $0) } ?? testCase.status
        return HTTPResponse(
            status: status, headers: HTTPHeaders(fields), body: testCase.body, compression: testCase.compression)
    }

    @Test(arguments: cases)
    func writesTheBytesOfAResponsePreparedWhole(_ testCase: Case) throws {
        let head = try #require(
            PreparedHead(
                status: testCase.status, headers: HTTPHeaders(testCase.fields), variableStatus: testCase.variableStatus,
                variableFields: testCase.variable))
        let response = Self.response(testCase)
        let laidOut = PreparedResponse(response, head: head)
        let whole = PreparedResponse(response)
        #expect(
            String(decoding: laidOut.identity.headBytes, as: UTF8.self)
                == String(decoding: whole.identity.headBytes, as: UTF8.self))
        #expect(laidOut.identity.bodyBytes == whole.identity.bodyBytes)
        #expect((laidOut.gzip == nil) == (whole.gzip == nil))
        if let gzip = laidOut.gzip, let wholeGzip = whole.gzip {
            #expect(gzip.headBytes == wholeGzip.headBytes)
            #expect(gzip.bodyBytes == wholeGzip.bodyBytes)
        }
        #expect(laidOut.hasDate == whole.hasDate && laidOut.wantsClose == whole.wantsClose)
        #expect(laidOut.response == response)
    }

    /// Each form is one allocation: the head, then the body right after it (none when the
    /// status forbids one), laid out or prepared whole alike.
    @Test(arguments: cases)
    func eachFormHoldsItsHeadThenItsBody(_ testCase: Case) throws {
        let head = try #require(
            PreparedHead(
                status: testCase.status, headers: HTTPHeaders(testCase.fields), variableStatus: testCase.variableStatus,
                variableFields: testCase.variable))
        let response = Self.response(testCase)
        for prepared in [PreparedResponse(response, head: head), PreparedResponse(response)] {
            for form in [prepared.identity] + (prepared.gzip.map { [$0] } ?? []) {
                #expect(form.head.upperBound == form.body.lowerBound && form.body.upperBound == form.storage.count)
                #expect(Array(form.storage.bytes) == form.headBytes + form.bodyBytes)
                #expect(form.bodyBytes.isEmpty == (response.status.forbidsBody || response.body.isEmpty))
            }
        }
    }

    @Test func theNotesAreThoseOfTheFixedFields() throws {
        let head = try #require(
            PreparedHead(
                status: .ok, headers: ["Date": "x", "Connection": "close", "X": ""], variableFields: [2]))
        #expect(head.hasDate && head.wantsClose)
    }

    @Test func aVaryingConnectionFieldOrAnIndexOutsideTheFieldsHasNoLayout() {
        #expect(PreparedHead(status: .ok, headers: ["connection": "{{c}}"], variableFields: [0]) == nil)
        #expect(PreparedHead(status: .ok, headers: ["X": "1"], variableFields: [1]) == nil)
        #expect(PreparedHead(status: .ok, headers: ["X": "1"], variableFields: [-1]) == nil)
    }

    @Test func aResponseOfAnotherShapeIsPreparedWhole() throws {
        let head = try #require(
            PreparedHead(status: .ok, headers: ["X-Id": "", "X-Fixed": "a"], variableFields: [0]))
        let shapes = [
            HTTPResponse(status: .ok, headers: ["X-Id": "1", "X-Fixed": "a", "X-More": "2"], body: [1]),
            HTTPResponse(status: .ok, headers: ["X-Other": "1", "X-Fixed": "a"], body: [1]),
            HTTPResponse(status: .created, headers: ["X-Id": "1", "X-Fixed": "a"], body: [1]),
            // A fixed value, or the fixed status's reason, given otherwise (codes compare equal).
            HTTPResponse(status: .ok, headers: ["X-Id": "1", "X-Fixed": "b"], body: [1]),
            HTTPResponse(
                status: HTTPStatus(code: 200, reasonPhrase: "Fine"), headers: ["X-Id": "1", "X-Fixed": "a"], body: [1]),
        ]
        for response in shapes {
            let prepared = PreparedResponse(response, head: head)
            #expect(prepared.identity.headBytes == PreparedResponse(response).identity.headBytes)
        }
    }
}
