import APISchema
import ContractKit
import JSONKit
import Platform
import TestSupport
import Testing

/// `petmock serve --openapi` refusing what it cannot serve, with the real binary.
@Suite struct PetmockOpenAPITests {
    /// `convert` writes a YAML document as the JSON of the same value, which reads as an
    /// OpenAPI document; what is not one is refused with the reader's error, nothing written.
    @Test func convertWritesTheSameDocumentAsJSON() async throws {
        let folder = try TemporaryDirectory(files: ["bad.yaml": "openapi: 3.1.0\npaths:\n  items: {}\n"])
        defer { folder.remove() }
        let yaml = "Examples/Bookshelf/openapi.yaml"
        let out = folder.file("bookshelf.json")
        let run = try await ToolProcess.run("petmock", ["convert", "--openapi", yaml, "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "petmock: wrote \(yaml) as JSON to \(out)\n")
        let written = try FileSystem.read(out)
        #expect(written.first == UInt8(ascii: "{"))
        let original = try OpenAPIReader.document(try FileSystem.read(yaml), source: yaml)
        #expect(try JSONValue(parsing: written) == original)

        let bad = try await ToolProcess.run(
            "petmock", ["convert", "--openapi", folder.file("bad.yaml"), "--out", folder.file("bad.json")])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.yaml: $.paths.items:"), "\(bad.stderr)")
        #expect(FileSystem.kind(of: folder.file("bad.json")) == nil)
    }

    /// A document's error quotes it (here a `$ref`): control characters in it reach the terminal
    /// escaped, from `convert` and `serve` alike; a file that cannot be written is exit 2.
    @Test func documentErrorsAreEscapedAndAnUnwritableOutputSaysSo() async throws {
        let folder = try TemporaryDirectory(files: [
            "evil.json": #"""
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses":
              {"200": {"description": "ok", "content": {"application/json":
                {"schema": {"$ref": "#/components/schemas/\u001b[31mX"}}}}}}}}}
            """#
        ])
        defer { folder.remove() }
        for arguments in [
            ["convert", "--openapi", folder.file("evil.json"), "--out", folder.file("out.json")],
            ["serve", "--openapi", folder.file("evil.json"), "--port", "0"],
        ] {
            let run = try await ToolProcess.run("petmock", arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("\u{1B}"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("points at no schema"), "\(arguments): \(run.stderr)")
        }
        let unwritable = try await ToolProcess.run(
            "petmock",
            ["convert", "--openapi", "Examples/Bookshelf/openapi.yaml", "--out", folder.file("no/such/dir/out.json")])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.contains("cannot write"), "\(unwritable.stderr)")
    }

    @Test func anUnreadableDocumentCannotStart() async throws {
        let result = try await ToolProcess.run("petmock", ["serve", "--openapi", "/nonexistent/items.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/items.yaml"), "\(result.stderr)")
    }

    @Test func anInvalidDocumentIsNamedWithItsJSONPath() async throws {
        let folder = try TemporaryDirectory(files: ["bad.yaml": "openapi: 3.1.0\npaths:\n  items: {}\n"])
        defer { folder.remove() }
        let result = try await ToolProcess.run(
            "petmock", ["serve", "--openapi", folder.file("bad.yaml"), "--port", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.yaml: $.paths.items:"), "\(result.stderr)")
    }

    @Test func aResponseNoBodyCanBeMadeForIsReportedAtLoad() async throws {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/b": {"get": {"responses": {
              "200": {"description": "ok", "content": {"application/json": {"schema":
                {"type": "string", "pattern": "^[0-9]{5}$", "maxLength": 3}}}}}}}}}
            """
        let folder = try TemporaryDirectory(files: ["hostile.json": document])
        defer { folder.remove() }
        let server = try await ServerProcess(
            "petmock", ["serve", "--openapi", folder.file("hostile.json"), "--port", "0"])
        await server.stop()
        let errors = server.finalErrorOutput()
        #expect(
            errors.contains(
                "petmock: warning: GET /b 200: #/paths/~1b/get/responses/200/content/application~1json/schema: "
                    + "cannot generate a valid body: the pattern /^[0-9]{5}$/"),
            "\(errors)")
        #expect(errors.contains("(answered with a 500)"), "\(errors)")
    }

    @Test func aBasePathWithoutADocumentIsAUsageError() async throws {
        let result = try await ToolProcess.run("petmock", ["serve", "--base-path", "/v2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--base-path"), "\(result.stderr)")
    }

    @Test func validateRequestsWithoutADocumentIsAUsageError() async throws {
        let result = try await ToolProcess.run("petmock", ["serve", "--validate-requests", "off"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--validate-requests"), "\(result.stderr)")
    }

    @Test func statefulWithoutADocumentIsAUsageError() async throws {
        let result = try await ToolProcess.run("petmock", ["serve", "--stateful"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--stateful needs --openapi FILE beside it"), "\(result.stderr)")
    }

    @Test(arguments: ["--dynamic", "--errors"])
    func aDocumentSwitchWithoutADocumentIsAUsageError(_ flag: String) async throws {
        let result = try await ToolProcess.run("petmock", ["serve", flag])
        #expect(result.status == 64)
        #expect(result.stderr.contains("\(flag) needs --openapi FILE beside it"), "\(result.stderr)")
    }

    /// `--dynamic` and `--errors` reach the document's answers: a dynamic answer seeded from the
    /// counter, and an example that breaks its schema named at start and answered with a 500.
    @Test func dynamicAndErrorsReachTheDocument() async throws {
        let folder = try TemporaryDirectory(files: [
            "doc.json": """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/bad": {"get": {"responses": {
              "200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
                "example": {"id": "seven"}}}}}}}}}
            """
        ])
        defer { folder.remove() }
        let server = try await ServerProcess(
            "petmock", ["serve", "--port", "0", "--openapi", folder.file("doc.json"), "--dynamic", "--errors"])
        let dynamic = try fetch(server.port, "/bad")
        let example = try fetch(server.port, "/bad", headers: [("Prefer", "dynamic=false")])
        #expect(await server.stop() == 0)
        #expect(dynamic.status == 200, "\(dynamic.text)")
        #expect(dynamic.header("Petmock-Seed") == "1")
        #expect(example.status == 500, "\(example.text)")
        #expect(example.text.contains("urn:petmock:problem:invalid-response"))
        #expect(
            server.finalErrorOutput().contains(
                "GET /bad 200 application/json: its example breaks the response schema: response.body.$.id: "
                    + "expected integer, found string \"seven\" (answered with a 500)"), "\(server.errorOutput)")
    }

    @Test func statefulBesideTheValidatingProxyIsAUsageError() async throws {
        let result = try await ToolProcess.run(
            "petmock",
            [
                "serve", "--openapi", "Tests/OpenAPIMockTests/Fixtures/things.openapi.json", "--stateful",
                "--proxy-unmatched", "http://127.0.0.1:9",
            ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--stateful with --proxy-unmatched"), "\(result.stderr)")
    }

    /// `variants --openapi` says which operations `serve --stateful` keeps state for, and what
    /// each does to which collection.
    @Test func variantsListTheStatefulOperations() async throws {
        let document = "Tests/OpenAPIMockTests/Fixtures/things.openapi.json"
        let text = try await ToolProcess.run("petmock", ["variants", "--openapi", document])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\n\nStateful with --stateful:\n  GET /things "), "\(text.stdout)")
        #expect(text.stdout.contains("  POST /users/{userId}/orders           create /v1/users/{userId}/orders\n"))
        #expect(!text.stdout.contains("archive  "))
        let json = try await ToolProcess.run("petmock", ["variants", "--openapi", document, "--format", "json"])
        let listed = try JSONValue(parsing: json.stdout)["stateful"]?.arrayValue ?? []
        #expect(listed.count == 12)
        #expect(listed.first == ["operation": "GET /things", "role": "list", "collection": "/v1/things"])
    }

    /// `serve --stateful` keeps what clients create: N clients × M creates over sockets make
    /// N×M resources with distinct ids, and the admin counts them.
    @Test func theRealProcessKeepsEveryConcurrentCreate() async throws {
        let document = "Tests/OpenAPIMockTests/Fixtures/things.openapi.json"
        let server = try await ServerProcess("petmock", ["serve", "--openapi", document, "--stateful", "--port", "0"])
        let port = server.port
        let clients = 8
        let creates = 25
        let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var ids: [Int64] = []
                    for number in 0..<creates {
                        let created = try fetch(
                            port, "POST", "/v1/things", headers: [("Content-Type", "application/json")],
                            body: #"{"name":"c\#(client)-\#(number)"}"#)
                        #expect(created.status == 201, "\(created.text)")
                        ids.append(try JSONValue(parsing: created.body)["id"]?.intValue ?? -1)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let state = try JSONValue(parsing: try fetch(port, "/__admin/petmock/state/things").body)
        let read = try fetch(port, "/v1/things/\(ids.max() ?? 0)")
        #expect(await server.stop() == 0)
        #expect(Set(ids).count == clients * creates)
        #expect(!ids.contains(-1))
        #expect(state["total"]?.intValue == Int64(clients * creates + 2))
        #expect(read.status == 200)
    }

    /// `--state-file`: what was answered survives a SIGKILL; the restarted process reads it back
    /// from the file (and does not seed it again), and an admin reset resets the file too.
    @Test func theStateFileKeepsWhatWasAnsweredThroughAKill9() async throws {
        let document = "Tests/OpenAPIMockTests/Fixtures/things.openapi.json"
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let options = ["serve", "--openapi", document, "--stateful", "--state-file", folder.file("things.sqlite")]
        let json = [("Content-Type", "application/json")]
        let first = try await ServerProcess("petmock", options + ["--port", "0"])
        var created: [JSONValue] = []
        for name in ["saw", "drill", "rake"] {
            let answer = try fetch(first.port, "POST", "/v1/things", headers: json, body: #"{"name":"\#(name)"}"#)
            #expect(answer.status == 201, "\(answer.text)")
            created.append(try JSONValue(parsing: answer.body))
        }
        #expect(try fetch(first.port, "DELETE", "/v1/things/1").status == 204)
        let patched = try fetch(
            first.port, "PATCH", "/v1/things/4", headers: [("Content-Type", "application/merge-patch+json")],
            body: #"{"name":"power drill"}"#)
        #expect(patched.status == 200)
        await first.kill9()

        let second = try await ServerProcess("petmock", options + ["--port", "0"])
        let listed = try JSONValue(parsing: try fetch(second.port, "/v1/things").body)
        #expect(listed.arrayValue?.map { $0["name"] } == ["kite", "saw", "power drill", "rake"], "\(listed)")
        #expect(try JSONValue(parsing: try fetch(second.port, "/v1/things/3").body) == created[0])
        #expect(try fetch(second.port, "/v1/things/1").status == 404)
        // The sequence goes on after the largest id ever stored.
        let next = try fetch(second.port, "POST", "/v1/things", headers: json, body: #"{"name":"hoe"}"#)
        #expect(try JSONValue(parsing: next.body)["id"] == 6)
        #expect(try fetch(second.port, "DELETE", "/__admin/petmock/state").status == 200)
        await second.kill9()

        let third = try await ServerProcess("petmock", options + ["--port", "0"])
        let reset = try JSONValue(parsing: try fetch(third.port, "/v1/things").body)
        #expect(reset.arrayValue?.map { $0["name"] } == ["hammer", "kite"], "\(reset)")
        #expect(await third.stop() == 0)
    }

    /// The examples the store does not start with are warnings naming them, escaped.
    @Test func leftOutSeedExamplesAreWarnings() async throws {
        let folder = try TemporaryDirectory(prefix: "seed")
        defer { folder.remove() }
        let thing = #"{"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}"#
        try folder.write(
            """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {
              "/things": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "array", "items": \(thing)},
                "example": [{"id": 1, "name": "a"}, {"name": "no id"}, {"id": "e\\u001b[31m"}, {"id": "e\\u001b[31m"}]
              }}}}}},
              "/things/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true,
                "schema": {"type": "integer"}}], "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": \(thing)}}}}}}}}
            """, to: "things.json")
        let server = try await ServerProcess(
            "petmock", ["serve", "--openapi", folder.file("things.json"), "--stateful", "--port", "0"])
        let errors = server.errorOutput
        #expect(await server.stop() == 0)
        #expect(errors.contains("petmock: warning: stateful seed: /things: example 1 has no id"), "\(errors)")
        // The repeated id holds an escape sequence: it reaches the terminal escaped.
        #expect(errors.contains("petmock: warning: stateful seed: /things: the example with id 'e"), "\(errors)")
        #expect(errors.contains("' repeats an id"))
        #expect(!errors.contains("\u{1B}"))
    }

    @Test func aStateFileWithoutStatefulIsAUsageError() async throws {
        let result = try await ToolProcess.run(
            "petmock",
            ["serve", "--openapi", "Tests/OpenAPIMockTests/Fixtures/things.openapi.json", "--state-file", "x.sqlite"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--state-file"), "\(result.stderr)")
        #expect(result.stderr.contains("--stateful beside it"), "\(result.stderr)")
    }

    /// A file that is not a state file, or one of another document, stops the start: exit 2,
    /// the file named.
    @Test(arguments: ["Tests/OpenAPIMockTests/Fixtures/things.openapi.json", "Examples/Bookshelf/openapi.yaml"])
    func aBadStateFileStopsTheStart(_ document: String) async throws {
        let folder = try TemporaryDirectory(prefix: "state")
        defer { folder.remove() }
        let path = folder.file("state.sqlite")
        if document.hasSuffix(".json") {
            try folder.write(String(repeating: "not a database ", count: 20), to: "state.sqlite")
        } else {
            // A state file of the things document, given to the bookshelf's.
            let things = try await ServerProcess(
                "petmock",
                [
                    "serve", "--openapi", "Tests/OpenAPIMockTests/Fixtures/things.openapi.json", "--stateful",
                    "--state-file", path, "--port", "0",
                ])
            #expect(await things.stop() == 0)
        }
        let result = try await ToolProcess.run(
            "petmock", ["serve", "--openapi", document, "--stateful", "--state-file", path, "--port", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("petmock: error: state file '\(path)'"), "\(result.stderr)")
    }

    /// `--cors` is on by default with `--openapi` (as Prism), off for a stub folder alone (as
    /// WireMock), and `--cors on|off` says otherwise: a browser's preflight is a 204 where the
    /// document would answer 405.
    @Test(arguments: [
        (["--openapi", "Examples/Bookshelf/openapi.yaml"], 204),
        (["--openapi", "Examples/Bookshelf/openapi.yaml", "--cors", "off"], 405),
        (["--stubs", "Stubs"], 404),
        (["--stubs", "Stubs", "--cors", "on"], 204),
    ])
    func corsIsOnByDefaultWithADocument(options: [String], preflight: Int) async throws {
        let server = try await ServerProcess("petmock", ["serve", "--port", "0"] + options)
        let origin = ("Origin", "http://localhost:5173")
        let target = options.contains("Stubs") ? "/api/pets" : "/v1/books"
        let answer = try fetch(
            server.port, "OPTIONS", target, headers: [origin, ("Access-Control-Request-Method", "POST")])
        let get = try fetch(server.port, "GET", target, headers: [origin])
        #expect(await server.stop() == 0)
        #expect(answer.status == preflight, "\(options): \(answer.text)")
        let allowed = preflight == 204 ? "http://localhost:5173" : nil
        #expect(answer.header("Access-Control-Allow-Origin") == allowed, "\(options)")
        #expect(get.header("Access-Control-Allow-Origin") == allowed, "\(options)")
    }

    /// A Swagger 2.0 document is served like a 3.0 one, mounted at its `basePath`.
    @Test func aSwaggerDocumentIsServed() async throws {
        let document = "Tests/ContractKitTests/Fixtures/oai/swagger2-petstore.yaml"
        let server = try await ServerProcess("petmock", ["serve", "--port", "0", "--openapi", document])
        let answer = try fetch(server.port, "/v1/pets/7")
        let bad = try fetch(server.port, "/v1/pets?limit=ten")
        #expect(await server.stop() == 0)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(answer.text.hasPrefix("["), "\(answer.text)")
        #expect(bad.status == 400, "\(bad.text)")
    }

    @Test func corsTakesOnOrOff() async throws {
        let result = try await ToolProcess.run("petmock", ["serve", "--openapi", "x.yaml", "--cors", "yes"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'on', 'off'"), "\(result.stderr)")
    }

    @Test func validateRequestsTakesOnOrOff() async throws {
        let result = try await ToolProcess.run(
            "petmock", ["serve", "--openapi", "x.yaml", "--validate-requests", "no"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'on', 'off'"), "\(result.stderr)")
    }

    @Test func securityWithoutADocumentIsAUsageError() async throws {
        let result = try await ToolProcess.run("petmock", ["serve", "--security", "off"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--security"), "\(result.stderr)")
        #expect(result.stderr.contains("--openapi FILE beside it"), "\(result.stderr)")
    }

    /// A document's `security` is enforced by default (a 401 naming the scheme, a warning for
    /// a scheme it does not define); `--security off` answers without credentials.
    @Test func securityIsEnforcedUnlessTurnedOff() async throws {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "security": [{"key": []}],
             "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}},
                       "/b": {"get": {"security": [{"ghost": []}, {"key": []}],
                                      "responses": {"200": {"description": "ok"}}}}},
             "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}}}
            """
        let folder = try TemporaryDirectory(files: ["secured.json": document])
        defer { folder.remove() }
        let enforced = try await ServerProcess(
            "petmock", ["serve", "--openapi", folder.file("secured.json"), "--port", "0"])
        let refused = try fetch(enforced.port, "/a")
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == #"ApiKey realm="petmock", name="X-Key", in="header""#)
        #expect(try fetch(enforced.port, "/a", headers: [("X-Key", "k")]).status == 200)
        await enforced.stop()
        #expect(
            enforced.finalErrorOutput().contains(
                "petmock: warning: #/paths/~1b/get/security/0/ghost: security scheme 'ghost' is not defined in "
                    + "components/securitySchemes; requests are not checked for it"),
            "\(enforced.finalErrorOutput())")

        let off = try await ServerProcess(
            "petmock", ["serve", "--openapi", folder.file("secured.json"), "--port", "0", "--security", "off"])
        #expect(try fetch(off.port, "/a").status == 200)
        await off.stop()
        #expect(!off.finalErrorOutput().contains("warning"), "\(off.finalErrorOutput())")
    }
}
