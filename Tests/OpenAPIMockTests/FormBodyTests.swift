import APISchema
import ContractKit
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import OpenAPIMock
import Testing

/// `multipart/form-data` and `application/x-www-form-urlencoded` request bodies checked
/// against their schemas, each part or field read as its property says, with the media type's
/// `encoding` (`contentType`, `style`, `explode`, `allowReserved`): a table of bodies and the
/// status and violations' locations each must give.
@Suite struct FormBodyTests {
    static func reply(_ body: String, contentType: String) throws -> FallbackAnswer {
        let contract = try ParameterStyleTests.contract()
        let request = HTTPServerRequest(
            method: .post, target: "/upload", headers: ["Content-Type": contentType],
            body: Array(body.replacing("\n", with: "\r\n").utf8))
        return try #require(OpenAPIResponder(contract: contract).reply(to: request))
    }

    /// A multipart body of `(name, content type or nil, content)` parts, with boundary `XyZ`.
    static func multipart(_ parts: [(String, String?, String)]) -> String {
        var text = ""
        for (name, type, content) in parts {
            let file = type == nil ? "" : "; filename=\"f.bin\""
            text += "--XyZ\nContent-Disposition: form-data; name=\"\(name)\"\(file)\n"
            if let type { text += "Content-Type: \(type)\n" }
            text += "\n\(content)\n"
        }
        return text + "--XyZ--\n"
    }

    static let multipartType = "multipart/form-data; boundary=XyZ"
    static let png: (String, String?, String) = ("file", "image/png", "\u{89}PNG")

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        var contentType = FormBodyTests.multipartType
        let status: Int
        let locations: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "every part as documented",
            body: multipart([
                ("title", nil, "Holiday"), ("count", nil, "3"), ("public", nil, "true"), ("tags", nil, "a"),
                ("tags", nil, "b"), ("meta", "application/json", #"{"a": 1}"#), png,
            ]), status: 201, locations: []),
        Row(
            name: "a short string", body: multipart([("title", nil, "H"), png]), status: 422,
            locations: ["body.$.title"]),
        Row(
            name: "a number part that is not one",
            body: multipart([("title", nil, "Hi"), ("count", nil, "many"), png]),
            status: 422, locations: ["body.$.count"]),
        Row(
            name: "a number above its maximum", body: multipart([("title", nil, "Hi"), ("count", nil, "9"), png]),
            status: 422, locations: ["body.$.count"]),
        Row(
            name: "a Boolean part", body: multipart([("title", nil, "Hi"), ("public", nil, "maybe"), png]), status: 422,
            locations: ["body.$.public"]),
        Row(
            name: "repeated parts are an array",
            body: multipart([("title", nil, "Hi"), ("tags", nil, "a"), ("tags", nil, "b"), ("tags", nil, "c"), png]),
            status: 422, locations: ["body.$.tags"]),
        Row(
            name: "an object part is JSON",
            body: multipart([("title", nil, "Hi"), ("meta", nil, #"{"a": "x"}"#), png]),
            status: 422, locations: ["body.$.meta.a"]),
        Row(
            name: "an object part that is not JSON", body: multipart([("title", nil, "Hi"), ("meta", nil, "{"), png]),
            status: 400, locations: ["body.$.meta"]),
        Row(name: "a required part missing", body: multipart([png]), status: 422, locations: ["body.$.title"]),
        Row(
            name: "a file of a media type its encoding does not list",
            body: multipart([("title", nil, "Hi"), ("file", "text/plain", "hello")]), status: 422,
            locations: ["body.$.file"]),
        Row(
            name: "a file of a listed media type, with parameters",
            body: multipart([("title", nil, "Hi"), ("file", "image/jpeg; q=1", "...")]), status: 201, locations: []),
        Row(
            name: "no boundary", body: multipart([("title", nil, "Hi"), png]), contentType: "multipart/form-data",
            status: 400, locations: ["body"]),
        Row(
            name: "no closing delimiter", body: "--XyZ\nContent-Disposition: form-data; name=\"title\"\n\nHi\n",
            status: 400, locations: ["body"]),
        Row(
            name: "a part with no name", body: "--XyZ\nContent-Type: text/plain\n\nHi\n--XyZ--\n", status: 400,
            locations: ["body"]),
        Row(
            name: "a form body as documented", body: "ids=1,2,3&back=/home?x=1&note=hello+there",
            contentType: "application/x-www-form-urlencoded", status: 201, locations: []),
        Row(
            name: "a form array not exploded", body: "ids=1,x", contentType: "application/x-www-form-urlencoded",
            status: 422, locations: ["body.$.ids[1]"]),
        Row(
            name: "a reserved character in a form field", body: "note=a/b",
            contentType: "application/x-www-form-urlencoded", status: 422, locations: ["body.$.note"]),
        Row(
            name: "a reserved character encoded", body: "note=a%2Fb", contentType: "application/x-www-form-urlencoded",
            status: 201, locations: []),
    ]

    @Test(arguments: rows) func aFormBodyIsCheckedPartByPart(_ row: Row) throws {
        let answer = try Self.reply(row.body, contentType: row.contentType)
        #expect(answer.response.response.status.code == row.status, "\(answer.violations)")
        #expect(answer.violations.map(\.location) == row.locations, "\(answer.violations)")
    }

    @Test func aMalformedMultipartBodySaysWhatIsWrong() throws {
        let noBoundary = try Self.reply(Self.multipart([Self.png]), contentType: "multipart/form-data")
        #expect(noBoundary.violations.first?.expected == "a boundary parameter in the Content-Type")
        let problem = try JSONValue(parsing: noBoundary.response.response.body)
        #expect(problem["status"] == .int(400))
        let unclosed = try Self.reply(
            "--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nx", contentType: Self.multipartType)
        #expect(unclosed.violations.first?.expected == "a well-formed multipart/form-data body")
    }

    @Test func aFormBodysViolationsAreBounded() throws {
        let body = (0..<400).map { _ in "note=a/b" }.joined(separator: "&") + "&ids=x"
        let answer = try Self.reply(body, contentType: "application/x-www-form-urlencoded")
        #expect(answer.response.response.status.code == 422)
        #expect(answer.violations.count == 50)
    }

    static let partHeaders = """
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/u": {"post": {
          "requestBody": {"content": {
            "multipart/form-data": {"schema": {"type": "object", "properties": {"file": {"type": "string"}}},
              "encoding": {"file": {"headers": {
                "X-Rate": {"required": true, "schema": {"type": "integer", "maximum": 10}},
                "X-Tags": {"schema": {"type": "array", "items": {"type": "string"}, "maxItems": 2}},
                "Content-Type": {"schema": {"type": "string"}}}}}},
            "application/x-www-form-urlencoded": {"schema": {"type": "object"},
              "encoding": {"note": {"headers": {"X-Note": {"schema": {"type": "string"}}}}}}}},
          "responses": {"201": {"description": "ok", "content": {"application/json": {"example": {}}}}}}}}}
        """

    /// A multipart body of one part `file` with these extra header lines.
    static func part(_ headers: [String]) -> String {
        var text = "--XyZ\nContent-Disposition: form-data; name=\"file\"\n"
        for header in headers { text += header + "\n" }
        return text + "\ncontent\n--XyZ--\n"
    }

    @Test(arguments: [
        ([String](), ["body.$.file.header.X-Rate"]),
        (["X-Rate: 3"], []),
        (["x-rate: 3", "X-Tags: a, b"], []),
        (["X-Rate: 30"], ["body.$.file.header.X-Rate"]),
        (["X-Rate: three"], ["body.$.file.header.X-Rate"]),
        (["X-Rate: 3", "X-Tags: a,b,c"], ["body.$.file.header.X-Tags"]),
    ])
    func aPartsHeadersAreCheckedAgainstItsEncoding(headers: [String], locations: [String]) throws {
        let contract = try OpenAPIReader().read(Array(Self.partHeaders.utf8), source: "t.json")
        let request = HTTPServerRequest(
            method: .post, target: "/u", headers: ["Content-Type": Self.multipartType],
            body: Array(Self.part(headers).replacing("\n", with: "\r\n").utf8))
        let answer = try #require(OpenAPIResponder(contract: contract).reply(to: request))
        #expect(answer.violations.map(\.location) == locations, "\(answer.violations)")
        #expect(answer.response.response.status.code == (locations.isEmpty ? 201 : 422))
        if let violation = answer.violations.first {
            #expect(violation.message.hasPrefix("the part 'file': "), "\(violation.message)")
        }
    }

    @Test func encodingHeadersAreReadWrittenAndTheIgnoredOnesNamed() throws {
        let contract = try OpenAPIReader().read(Array(Self.partHeaders.utf8), source: "t.json")
        let media = try #require(contract.operations.first?.requestBody?.media("multipart/form-data"))
        #expect(media.encoding["file"]?.headers.map(\.name) == ["X-Rate", "X-Tags"])
        #expect(media.encoding["file"]?.headers.first?.required == true)
        #expect(
            contract.ignoredKeywords == [
                "encoding header 'Content-Type' of the part 'file' at #/paths/~1u/post/requestBody/content"
                    + "/multipart~1form-data/encoding/file/headers/Content-Type is not supported: a part's media "
                    + "type is its encoding's 'contentType': not checked",
                "encoding header 'X-Note' of the field 'note' at #/paths/~1u/post/requestBody/content"
                    + "/application~1x-www-form-urlencoded/encoding/note/headers/X-Note is not supported: headers "
                    + "apply to multipart parts only: not checked",
            ])
        let again = try OpenAPIReader().read(OpenAPIWriter().document(contract), source: "again")
        #expect(again.operations.first?.requestBody?.media("multipart/form-data") == media)
    }

    /// A `content` key that is no media type (`description` written one level too deep) is
    /// left out of the response and named, not served as a media type.
    @Test func aContentKeyThatIsNoMediaTypeIsLeftOutAndNamed() throws {
        let text = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
              "responses": {"200": {"content": {"description": "ok", "application/json": {"example": "ok"}}}}}}}}
            """
        let contract = try OpenAPIReader().read(Array(text.utf8), source: "t.json")
        let response = try #require(contract.operation(named: "GET /a")?.response(for: 200))
        #expect(response.mediaType == "application/json")
        #expect(response.otherContent.isEmpty)
        #expect(
            contract.ignoredKeywords == [
                "content key 'description' at #/paths/~1a/get/responses/200/content/description is not supported: "
                    + "not a media type (type/subtype): the entry is ignored"
            ])
    }

    @Test func encodingIsReadAndWritten() throws {
        let contract = try ParameterStyleTests.contract()
        let again = try OpenAPIReader().read(OpenAPIWriter().document(contract), source: "again")
        let media = try #require(again.operation(named: "POST /upload")?.requestBody?.media("multipart/form-data"))
        #expect(media.encoding["file"]?.contentType == "image/png, image/jpeg")
        let form = try #require(
            again.operation(named: "POST /upload")?.requestBody?.media("application/x-www-form-urlencoded"))
        #expect(form.encoding["ids"]?.explode == false)
        #expect(form.encoding["back"]?.allowReserved == true)
    }
}
