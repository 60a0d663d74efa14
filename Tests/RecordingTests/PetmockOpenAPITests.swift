import TestSupport
import Testing

/// `petmock serve --openapi` refusing what it cannot serve, with the real binary.
@Suite struct PetmockOpenAPITests {
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

    @Test func validateRequestsTakesOnOrOff() async throws {
        let result = try await ToolProcess.run(
            "petmock", ["serve", "--openapi", "x.yaml", "--validate-requests", "no"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'on', 'off'"), "\(result.stderr)")
    }
}
