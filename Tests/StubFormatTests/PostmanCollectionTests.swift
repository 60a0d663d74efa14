import HTTPCore
import JSONKit
import StubFormat
import Testing

/// Postman collections read to stubs as values: no file, no server.
@Suite struct PostmanCollectionTests {
    /// One collection (its `item` and `variable` arrays) and what reading it gives.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
        var variables = "[]"
        var environment: String?
        let items: String
        /// Each mapping as ``summary(_:)`` writes it.
        let mappings: [String]
        /// The problems, as `severity kind path`.
        var problems: [String] = []
        var testDescription: String { name }
    }

    /// `GET urlPath '/pets' q[limit equalTo '2'] h[Accept equalTo 'x'] -> 200 json {...} variant V p4`.
    static func summary(_ mapping: StubMapping) -> String {
        var parts = [mapping.request.method?.rawValue ?? "ANY", mapping.request.url?.description ?? "any URL"]
        for query in mapping.request.queryParameters { parts.append("q[\(query.name) \(query.matcher)]") }
        for header in mapping.request.headers { parts.append("h[\(header.name) \(header.matcher)]") }
        parts.append("-> \(mapping.response.status)")
        for field in mapping.response.headers { parts.append("\(field.name): \(field.value)") }
        switch mapping.response.body {
        case .none: break
        case .json(let value): parts.append("json \(value.serialized())")
        case .text(let text): parts.append("text '\(text)'")
        case .bytes(let bytes): parts.append("bytes \(bytes.count)")
        case .file(let name): parts.append("file \(name)")
        }
        if let variant = mapping.variant { parts.append("variant \(variant)") }
        if let priority = mapping.priority { parts.append("p\(priority)") }
        return parts.joined(separator: " ")
    }

    static func document(_ testCase: Case) -> String {
        #"{"info": {"name": "t", "schema": "\#(testCase.schema)"}, "variable": \#(testCase.variables), "item": \#(testCase.items)}"#
    }

    static func example(
        _ name: String = "ok", original: String? = nil, code: Int = 200, header: String = "[]", body: String = "null",
        language: String? = nil
    ) -> String {
        var fields = [#""name": "\#(name)""#, #""code": \#(code)"#, #""header": \#(header)"#, #""body": \#(body)"#]
        if let original { fields.append(#""originalRequest": \#(original)"#) }
        if let language { fields.append(#""_postman_previewlanguage": "\#(language)""#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func request(_ name: String = "r", request: String, examples: [String]) -> String {
        #"{"name": "\#(name)", "request": \#(request), "response": [\#(examples.joined(separator: ", "))]}"#
    }

    static let cases: [Case] = [
        Case(
            name: "v2.1, a string URL whose base URL variable keeps its path prefix",
            variables: #"[{"key": "baseUrl", "value": "https://api.example.com/v1"}]"#,
            items: "[" + request(request: #""{{baseUrl}}/pets""#, examples: [example()]) + "]",
            mappings: ["GET urlPath '/v1/pets' -> 200 p4"]),
        Case(
            name: "v2.0, an object URL with host and path arrays (a path part as an object) and its query",
            schema: "https://schema.getpostman.com/json/collection/v2.0.0/collection.json",
            items: "["
                + request(
                    request: #"{"method": "GET", "url": "http://x/pets"}"#,
                    examples: [
                        example(
                            original:
                                #"{"method": "GET", "url": {"raw": "http://x/ignored", "protocol": "http", "host": ["api", "example", "com"], "path": ["pets", {"type": "string", "value": "toys"}], "query": [{"key": "limit", "value": "2"}, {"key": "off", "value": "1", "disabled": true}, {"key": "q", "value": "a%20b"}]}}"#
                        )
                    ]) + "]",
            mappings: ["GET urlPath '/pets/toys' q[limit equalTo '2'] q[q equalTo 'a b'] -> 200 p2"]),
        Case(
            name: "an unresolved base URL is dropped with the host, and named",
            items: "[" + request(request: #""{{baseUrl}}/pets""#, examples: [example(original: #""{{baseUrl}}/pets""#)])
                + "]",
            mappings: ["GET urlPath '/pets' -> 200 p4"],
            problems: ["warning unresolvedVariable $.item[0].response[0].originalRequest"]),
        Case(
            name: "a :name path variable without an example request matches any segment",
            items: "["
                + request(
                    request:
                        #"{"method": "DELETE", "url": {"raw": "/pets/:id", "path": ["pets", ":id"], "variable": [{"key": "id", "value": "7"}]}}"#,
                    examples: [example(code: 204)]) + "]",
            mappings: ["DELETE urlPathPattern '/pets/[^/]+' -> 204"]),
        Case(
            name: "a :name path variable the example request gives is matched as given",
            items: "["
                + request(
                    request: #"{"method": "GET", "url": "/pets/:id"}"#,
                    examples: [
                        example(
                            original:
                                #"{"method": "GET", "url": {"path": ["pets", ":id"], "variable": [{"key": "id", "value": "7"}]}}"#
                        )
                    ]) + "]",
            mappings: ["GET urlPath '/pets/7' -> 200 p4"]),
        Case(
            name: "an unresolved variable in a path segment matches that segment",
            items: "["
                + request(
                    request: #""/pets/{{petId}}/toys""#, examples: [example(original: #""/pets/{{petId}}/toys""#)])
                + "]",
            mappings: ["GET urlPathPattern '/pets/[^/]+/toys' -> 200"],
            problems: ["warning unresolvedVariable $.item[0].response[0].originalRequest"]),
        Case(
            name: "the example request's headers: disabled ones and Host left out, an unresolved value any text",
            items: "["
                + request(
                    request: #""/inventory""#,
                    examples: [
                        example(
                            original:
                                #"{"method": "GET", "url": "/inventory", "header": [{"key": "Accept", "value": "application/json"}, {"key": "X-Debug", "value": "1", "disabled": true}, {"key": "Host", "value": "example.com"}, {"key": "Authorization", "value": "Bearer {{token}}"}]}"#
                        )
                    ]) + "]",
            mappings: [
                "GET urlPath '/inventory' h[Accept equalTo 'application/json'] h[Authorization matches 'Bearer\\ .*'] -> 200 p2"
            ],
            problems: ["warning unresolvedVariable $.item[0].response[0].originalRequest.header[3]"]),
        Case(
            name: "the environment's values replace the collection's; a disabled one does not",
            variables: #"[{"key": "token", "value": "from-collection"}, {"key": "v", "value": "c"}]"#,
            environment:
                #"{"values": [{"key": "token", "value": "from-environment", "enabled": true}, {"key": "v", "value": "e", "enabled": false}]}"#,
            items: "["
                + request(
                    request: #""/x""#,
                    examples: [
                        example(
                            original:
                                #"{"url": "/x?v={{v}}", "header": [{"key": "Authorization", "value": "{{token}}"}]}"#)
                    ]) + "]",
            mappings: ["GET urlPath '/x' q[v equalTo 'c'] h[Authorization equalTo 'from-environment'] -> 200 p2"]),
        Case(
            name: "JSON by preview language or Content-Type, else text; framing and Date fields dropped",
            items: "["
                + request(
                    "a", request: #""/a""#,
                    examples: [
                        example(body: #""{\"id\": 1}""#, language: "json"),
                        example(
                            "typed", original: #""/a?t=1""#,
                            header:
                                #"[{"key": "Content-Type", "value": "application/problem+json"}, {"key": "Content-Length", "value": "9"}, {"key": "Date", "value": "x"}, {"key": "Transfer-Encoding", "value": "chunked"}]"#,
                            body: #""[true]""#),
                        example("broken", original: #""/a?t=2""#, body: #""{not json""#, language: "json"),
                        example("text", original: #""/a?t=3""#, body: #""hello {\"x\"}""#, language: "text"),
                        example("empty", original: #""/a?t=4""#, body: #""""#),
                    ]) + "]",
            mappings: [
                #"GET urlPath '/a' -> 200 json {"id":1} p4"#,
                "GET urlPath '/a' q[t equalTo '1'] -> 200 Content-Type: application/problem+json json [true] p3",
                "GET urlPath '/a' q[t equalTo '2'] -> 200 text '{not json' p3",
                #"GET urlPath '/a' q[t equalTo '3'] -> 200 text 'hello {"x"}' p3"#,
                "GET urlPath '/a' q[t equalTo '4'] -> 200 p3",
            ]),
        Case(
            name: "two examples with the same matchers: the first is the default, the next variants named after them",
            items: "["
                + request(
                    request: #""/pets/1""#,
                    examples: [
                        example("Rex", original: #""/pets/1""#),
                        example("Pet not found", original: #""/pets/1""#, code: 404),
                        example("Rex, adopted", original: #"{"method": "GET", "url": "/pets/1"}"#),
                        example("empty", original: #""/pets/1""#, code: 204),
                        example("Pet not found", original: #""/pets/1""#, code: 410),
                        example("Rex", original: #"{"method": "POST", "url": "/pets/1"}"#, code: 201),
                    ]) + "]",
            mappings: [
                "GET urlPath '/pets/1' -> 200 p4",
                "GET urlPath '/pets/1' -> 404 variant Pet-not-found p4",
                "GET urlPath '/pets/1' -> 200 variant Rex-adopted p4",
                "GET urlPath '/pets/1' -> 204 variant example-empty p4",
                "GET urlPath '/pets/1' -> 410 variant Pet-not-found-2 p4",
                "POST urlPath '/pets/1' -> 201 p4",
            ]),
        Case(
            name: "folders are walked; a request without examples is a warning; an item that is neither is an error",
            items: #"[{"name": "A", "item": [{"name": "B", "item": ["#
                + request("R", request: #""/r""#, examples: [example(original: #""/r""#)])
                + #", {"name": "Health", "request": "/health", "response": []}]}, {"name": "odd"}, {"name": "F", "item": 3}]}]"#,
            mappings: ["GET urlPath '/r' -> 200 p4"],
            problems: [
                "warning noExample $.item[0].item[0].item[1]", "warning missingField $.item[0].item[1]",
                "warning wrongType $.item[0].item[2].item",
            ]),
        Case(
            name: "an example whose method, URL or code cannot be read is left out, named",
            items: "["
                + request(
                    request: #"{"method": "GET", "url": "/ok"}"#,
                    examples: [
                        example("bad method", original: #"{"method": "GE T", "url": "/ok"}"#),
                        example("bad url", original: #"{"method": "GET", "url": 5}"#),
                        example("no code", original: #""/ok""#, code: 0),
                        example("fine", original: #""/ok""#),
                    ]) + ", " + #"{"name": "no url", "request": {"method": "GET"}, "response": [{"code": 200}]}"# + "]",
            mappings: ["GET urlPath '/ok' -> 200 p4"],
            problems: [
                "warning invalidValue $.item[0].response[0].originalRequest.method",
                "warning wrongType $.item[0].response[1].originalRequest.url",
                "warning invalidValue $.item[0].response[2].code", "warning missingField $.item[1].request",
            ]),
        Case(
            name: "variables within variables are resolved; a cycle stops and is named",
            variables:
                #"[{"key": "host", "value": "{{scheme}}://h/{{prefix}}"}, {"key": "scheme", "value": "https"}, {"key": "prefix", "value": "v2"}, {"key": "loop", "value": "{{loop}}"}]"#,
            items: "["
                + request(
                    request: #""{{host}}/a""#,
                    examples: [example(original: #""{{host}}/a?l={{loop}}""#, body: #""{{$guid}}""#)]) + "]",
            mappings: ["GET urlPath '/v2/a' q[l matches '.*'] -> 200 text '{{$guid}}' p3"],
            problems: [
                "warning unresolvedVariable $.item[0].response[0].originalRequest",
                "warning unresolvedVariable $.item[0].response[0].body",
            ]),
        Case(
            name: "a variable entry without a key is named and left out",
            variables: #"[{"value": "x"}, {"key": "a", "value": 3}]"#,
            items: "[" + request(request: #""/n/{{a}}""#, examples: [example(original: #""/n/{{a}}""#)]) + "]",
            mappings: ["GET urlPath '/n/3' -> 200 p4"],
            problems: ["warning wrongType $.variable[0]"]),
    ]

    @Test(arguments: cases)
    func readsTheCollection(_ testCase: Case) throws {
        let collection = try PostmanCollection(bytes: Array(Self.document(testCase).utf8), source: "c.json")
        let environment = try testCase.environment.map {
            try PostmanEnvironment(bytes: Array($0.utf8), source: "e.json")
        }
        let set = collection.stubs(environment: environment)
        #expect(set.mappings.map(Self.summary) == testCase.mappings)
        #expect(set.problems.map { "\($0.severity) \($0.kind) \($0.path)" } == testCase.problems)
        #expect(set.problems.allSatisfy { $0.file == "c.json" })
    }

    @Test func theVersionIsReadFromTheSchema() throws {
        let v20 = try PostmanCollection(
            json: [
                "info": ["schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"], "item": [],
            ],
            source: "c")
        #expect(v20.version == .v20)
        let v21 = try PostmanCollection(
            json: [
                "info": [
                    "name": "n", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
                ],
                "item": [],
            ], source: "c")
        #expect(v21.version == .v21)
        #expect(v21.name == "n")
    }

    static let refusals: [(String, PostmanCollectionError)] = [
        ("[]", .notACollection(source: "c", path: "$", reason: "expected an object, found an array of 0")),
        (#"{"item": []}"#, .notACollection(source: "c", path: "$", reason: "missing field 'info'")),
        (#"{"id": "x", "name": "old", "order": [], "requests": []}"#, .version1(source: "c")),
        (
            #"{"info": {"schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "item": []}"#,
            .version1(source: "c")
        ),
        (
            #"{"info": {"name": "x"}, "items": []}"#,
            .notACollection(
                source: "c", path: "$.info.schema",
                reason: "expected the URL of Postman's collection schema, found nothing")
        ),
        (
            #"{"info": {"schema": "https://example.com/other.json"}, "item": []}"#,
            .notACollection(
                source: "c", path: "$.info.schema",
                reason: "expected a v2.0 or v2.1 collection schema URL, found string 'https://example.com/other.json'")
        ),
        (
            #"{"info": {"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}}"#,
            .notACollection(source: "c", path: "$.item", reason: "expected an array of items, found nothing")
        ),
    ]

    @Test(arguments: refusals)
    func whatIsNotACollectionIsRefused(_ json: String, _ error: PostmanCollectionError) {
        #expect(throws: error) { try PostmanCollection(bytes: Array(json.utf8), source: "c") }
    }

    /// A collection written by hand may name no schema, as Prism's harness's do: with an `item`
    /// array it is read as v2.1, with a warning saying so.
    @Test func aCollectionWithoutASchemaIsReadAsVersion21WithAWarning() throws {
        let text = #"""
            {"info": {"name": "hand"}, "item": [{"name": "r", "request": {"url": {"path": ["todos"]}, "method": "GET"},
              "response": [{"name": "ok", "code": 200, "body": "hi"}]}]}
            """#
        let collection = try PostmanCollection(bytes: Array(text.utf8), source: "c")
        #expect(collection.version == .v21 && collection.schemaAssumed)
        let set = collection.stubs()
        #expect(set.mappings.count == 1)
        #expect(set.problems.map(\.path) == ["$.info.schema"])
        #expect(set.problems.first?.description.contains("read as a v2.1 collection") == true)
    }

    @Test func version1SaysToExportAsVersion2() {
        #expect(
            PostmanCollectionError.version1(source: "old.json").description
                == "old.json: Postman collection v1 is not supported; export as v2.1")
    }

    @Test func notJSONAndNotAnEnvironmentAreRefused() throws {
        #expect {
            try PostmanCollection(bytes: Array("{".utf8), source: "c")
        } throws: { error in
            if case .invalidJSON(source: "c", _) = error as? PostmanCollectionError { true } else { false }
        }
        #expect(
            throws: PostmanCollectionError.notAnEnvironment(
                source: "e", path: "$.values", reason: "expected an array of {key, value, enabled}, found nothing")
        ) {
            try PostmanEnvironment(bytes: Array(#"{"name": "e"}"#.utf8), source: "e")
        }
    }

    /// Warnings name the request by its folder path, and the variable.
    @Test func problemsNameTheRequestAndTheVariable() throws {
        let text = #"""
            {"info": {"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "Pets", "item": [{"name": "Health", "request": "{{baseUrl}}/health"},
                                                {"name": "List", "request": "/pets", "response": [{"code": 200, "originalRequest": "/pets?x={{token}}"}]}]}]}
            """#
        let set = try PostmanCollection(bytes: Array(text.utf8), source: "c.json").stubs()
        let lines = set.problems.map(\.description)
        #expect(
            lines.contains(
                "c.json: warning: $.item[0].item[0]: the request 'Pets / Health' has no saved example, so no stub"))
        #expect(
            lines.contains {
                $0.contains("$.item[0].item[1].response[0].originalRequest: the variable '{{token}}' has no value")
            })
        #expect(set.requestCount == 2)
        let mapping = try #require(set.mappings.first)
        #expect(mapping.name == "Pets / List / example 1")
        #expect(mapping.metadata?["postman"]?["folder"] == ["Pets"])
        #expect(mapping.metadata?["postman"]?["request"] == "List")
    }

    /// v2.0's `Name: value` lines: a line whose name is not a header name, or with no colon, is
    /// left out with a warning, so the mapping written reads again.
    @Test func headerLinesThatAreNotFieldsAreLeftOutAndNamed() throws {
        let text = #"""
            {"info": {"schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
             "item": [{"name": "r", "request": "http://x/pets",
                       "response": [{"code": 200, "header": "Content Type: text/plain\nno colon here\nX-Kept: 1", "body": "hi"}]}]}
            """#
        let set = try PostmanCollection(bytes: Array(text.utf8), source: "c.json").stubs()
        let lines = set.problems.map(\.description)
        #expect(
            lines.contains { $0.contains("$.item[0].response[0].header") && $0.contains("'Content Type: text/plain'") })
        #expect(lines.contains { $0.contains("'no colon here'; the line is left out") })
        let mapping = try #require(set.mappings.first)
        #expect(mapping.response.headers.fields.map(\.name) == ["X-Kept"])
        #expect(try StubMapping(json: mapping.json).json == mapping.json)
    }

    /// The ids are drawn from the collection, so generating twice writes the same files.
    @Test func idsAreTheSameEachTime() throws {
        let text = Self.document(Self.cases[9])
        let first = try PostmanCollection(bytes: Array(text.utf8), source: "c").stubs()
        let second = try PostmanCollection(bytes: Array(text.utf8), source: "c").stubs()
        #expect(first.mappings.map(\.id) == second.mappings.map(\.id))
        #expect(Set(first.mappings.map(\.id)).count == first.mappings.count)
    }

    /// A variable whose value doubles at every level stays bounded.
    @Test func variablesGrowingExponentiallyAreBounded() throws {
        var variables: [String] = [#"{"key": "v0", "value": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#]
        for level in 1...30 {
            variables.append(#"{"key": "v\#(level)", "value": "{{v\#(level - 1)}}{{v\#(level - 1)}}"}"#)
        }
        let testCase = Case(
            name: "", variables: "[" + variables.joined(separator: ", ") + "]",
            items: "[" + Self.request(request: #""/a""#, examples: [Self.example(body: #""{{v30}}""#)]) + "]",
            mappings: [])
        let set = try PostmanCollection(bytes: Array(Self.document(testCase).utf8), source: "c").stubs()
        guard case .text(let body) = set.mappings.first?.response.body else {
            Issue.record("no text body")
            return
        }
        #expect(body.utf8.count <= 1 << 17)
        #expect(set.problems.contains { $0.kind == .unresolvedVariable })
    }
}
