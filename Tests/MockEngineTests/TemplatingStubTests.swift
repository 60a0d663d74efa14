import HTTPCore
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Templated stubs as petmock loads and serves them: errors at load with their position, the
/// global flag, templated file names kept inside `__files/`, the admin API, drifts after
/// rendering, and the prepared path kept for stubs that do not template.
@Suite struct TemplatingStubTests {
    static func folder(_ mapping: String) throws -> TemporaryStubs {
        let folder = try TemporaryStubs()
        folder.write("mappings/m.json", mapping)
        return folder
    }

    @Test func aTemplateErrorIsALoadProblemWithItsPosition() throws {
        let folder = try Self.folder(
            #"{"request": {"url": "/t"}, "response": {"body": "ok\n  {{nope request.path}}", "transformers": ["response-template"]}}"#
        )
        let report = try StubLoader(root: folder.root).load()
        let problem = try #require(report.problems.first)
        #expect(problem.severity == .error && problem.path == "$.response.body")
        #expect(problem.message.contains("line 2, column 5: unknown helper 'nope'"), "\(problem.message)")
        #expect(report.mappings.isEmpty)
    }

    @Test func anUnknownTransformerOrBadParametersAreRefused() throws {
        var decoder = MappingDecoder(file: "t.json")
        _ = decoder.decodeResponse(
            try JSONValue(parsing: #"{"body": "x", "transformers": ["response-template", "my-own"]}"#), at: .root)
        #expect(decoder.problems.map(\.path) == ["$.transformers[1]"])
        #expect(decoder.problems.first?.message.contains("'my-own'") == true)
        var parameters = MappingDecoder(file: "p.json")
        _ = parameters.decodeResponse(try JSONValue(parsing: #"{"transformerParameters": [1]}"#), at: .root)
        #expect(parameters.problems.map(\.path) == ["$.transformerParameters"])
    }

    @Test func globalTemplatingTemplatesEveryStubAndPlainOnesKeepTheirPreparedBytes() throws {
        let folder = try TemporaryStubs()
        folder.write(
            "mappings/a.json", #"{"request": {"urlPath": "/a"}, "response": {"body": "{{request.path.[0]}}"}}"#)
        folder.write("mappings/b.json", #"{"request": {"urlPath": "/b"}, "response": {"body": "plain {}"}}"#)
        let flagged = try StubLoader(root: folder.root).load()
        #expect(flagged.problems.isEmpty)
        let plain = try startServer(stubs: folder.root)
        #expect(try fetch(plain.port, "/a").text == "{{request.path.[0]}}", "without the flag, no templating")
        plain.stop()
        let server = try startServer(stubs: folder.root) { $0.globalResponseTemplating = true }
        defer { server.stop() }
        #expect(try fetch(server.port, "/a").text == "a")
        #expect(try fetch(server.port, "/b").text == "plain {}")
        let stubs = server.engine.store.snapshot().index.all
        #expect(stubs.first { $0.mapping.request.url == .urlPath("/b") }?.template == nil)
        #expect(stubs.first { $0.mapping.request.url == .urlPath("/a") }?.template != nil)
        // And `validate --global-response-templating` checks what the flag would render.
        folder.write("mappings/c.json", #"{"request": {"urlPath": "/c"}, "response": {"body": "{{#if}}"}}"#)
        #expect(try StubLoader(root: folder.root).load().problems.isEmpty)
        let checked = try StubLoader(root: folder.root, globalResponseTemplating: true).load()
        #expect(checked.problems.map(\.path) == ["$.response.body"])
    }

    @Test func templatedHeadersStatusMessageAndParameters() throws {
        let folder = try Self.folder(
            #"""
            {"request": {"urlPathTemplate": "/users/{id}"},
             "response": {"status": 201, "statusMessage": "Made {{request.path.id}}",
                          "headers": {"Location": "/users/{{request.path.id}}", "X-Flavour": "{{parameters.flavour}}"},
                          "jsonBody": {"id": "{{request.path.id}}", "q": "{{request.query.q}}"},
                          "transformers": ["response-template"], "transformerParameters": {"flavour": "mint"}}}
            """#)
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        let answer = try fetch(server.port, "/users/42?q=x")
        #expect(answer.status == 201)
        #expect(answer.header("Location") == "/users/42" && answer.header("X-Flavour") == "mint")
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.json == ["id": "42", "q": "x"])
        // A generated drift applies to the rendered body.
        let drifted = try fetch(server.port, "/users/7", headers: [("X-Petmock-Variant", "missing:q")])
        #expect(drifted.json == ["id": "7"])
    }

    @Test func aTemplatedFileNameStaysInsideFiles() throws {
        let folder = try Self.folder(
            #"{"request": {"urlPathPattern": "/f/.*"}, "response": {"bodyFileName": "{{request.path.[1]}}", "transformers": ["response-template"]}}"#
        )
        folder.write("__files/inside.txt", "inside {{request.method}}")
        folder.write("secret.txt", "secret")
        symlink(folder.root + "/secret.txt", folder.root + "/__files/link.txt")
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        #expect(try fetch(server.port, "/f/inside.txt").text == "inside GET")
        let climbing = try fetch(server.port, "/f/..%2Fsecret.txt")
        #expect(climbing.status == 500 && climbing.text.contains("leads outside __files/"))
        #expect(!climbing.text.contains("secret\n") && climbing.text != "secret")
        let linked = try fetch(server.port, "/f/link.txt")
        #expect(linked.status == 500 && linked.text.contains("leads outside __files/"))
        let missing = try fetch(server.port, "/f/none.txt")
        #expect(missing.status == 500 && missing.text.contains("does not exist"))
        // A file over the template limit (1 MiB) is refused from its size, not read whole.
        folder.write("__files/huge.txt", String(repeating: "x", count: 2 << 20))
        let huge = try fetch(server.port, "/f/huge.txt")
        #expect(huge.status == 500 && huge.text.contains("too large to template"), "\(huge.text)")
    }

    @Test func parametersOfAStubThatIsNotTemplatedAreAWarning() throws {
        let folder = try Self.folder(
            #"{"request": {"url": "/p"}, "response": {"body": "plain", "transformerParameters": {"a": 1}}}"#)
        let plain = try StubLoader(root: folder.root).load()
        #expect(plain.problems.map(\.path) == ["$.response.transformerParameters"])
        #expect(plain.problems.first?.isError == false)
        #expect(plain.problems.first?.message.contains("not templated") == true)
        #expect(plain.mappings.count == 1)
        let global = try StubLoader(root: folder.root, globalResponseTemplating: true).load()
        #expect(global.problems.isEmpty, "\(global.problems)")
    }

    @Test func adminMappingsWithTransformersServeAndReadBackUnchanged() throws {
        let server = try startServer()
        defer { server.stop() }
        let mapping =
            #"{"id": "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7", "request": {"method": "GET", "url": "/hi?name=Ann"}, "response": {"status": 200, "body": "Hi {{request.query.name}}", "transformers": ["response-template"], "transformerParameters": {"a": 1}}}"#
        let created = try fetch(server.port, "POST", "/__admin/mappings", body: mapping)
        #expect(created.status == 201, "\(created.text)")
        #expect(try fetch(server.port, "/hi?name=Ann").text == "Hi Ann")
        let read = try fetch(server.port, "GET", "/__admin/mappings/8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7")
        #expect(read.json["response"]?["transformers"] == ["response-template"])
        #expect(read.json["response"]?["transformerParameters"] == ["a": 1])
        #expect(read.json["response"]?["body"] == "Hi {{request.query.name}}")
        let bad = try fetch(
            server.port, "POST", "/__admin/mappings",
            body:
                #"{"request": {"url": "/x"}, "response": {"body": "{{#each}}", "transformers": ["response-template"]}}"#
        )
        #expect(bad.status == 422 && bad.text.contains("line 1, column 4"), "\(bad.text)")
    }

    @Test func aRenderErrorIsA500NamingTheStub() throws {
        let folder = try Self.folder(
            #"{"id": "0b9a3c7e-1111-4ad7-a99f-38c9b00da3f7", "request": {"url": "/bad"}, "response": {"body": "{{math 1 '/' 0}}", "transformers": ["response-template"]}}"#
        )
        let server = try startServer(stubs: folder.root)
        defer { server.stop() }
        let answer = try fetch(server.port, "/bad")
        #expect(answer.status == 500)
        #expect(answer.text.contains("0b9a3c7e-1111-4ad7-a99f-38c9b00da3f7") && answer.text.contains("divides by zero"))
        #expect(server.admin.requests().first?.responseStatus == 500)
    }
}
