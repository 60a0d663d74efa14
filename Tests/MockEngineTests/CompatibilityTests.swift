import HTTPCore
import HTTPServerKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// WireMock's own stub roots (`../shared/compat/wiremock`, from WireMock's test resources)
/// load without problems and serve as WireMock documents. Skipped, saying why, where the
/// roots are absent (`Fixtures.wireMockCompat`).
@Suite(.enabled(if: Fixtures.wireMockCompat != nil, Fixtures.wireMockCompatAbsent))
struct CompatibilityTests {
    private func root(_ name: String) throws -> String {
        guard let compat = Fixtures.wireMockCompat else {
            throw FixtureError(description: "no WireMock stub roots")
        }
        return compat + "/" + name
    }

    @Test(arguments: ["remoteloader", "classpath-filesource", "test-file-root"])
    func everyMappingLoads(_ name: String) throws {
        let report = try StubLoader(root: try root(name)).load()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(!report.mappings.isEmpty)
    }

    @Test func remoteLoaderServesBodiesFilesHeadersAndTheScenario() throws {
        let server = try makeServer(stubs: try root("remoteloader"))
        #expect(try server.answer("/remote-load/1").text == "Remote load 1")
        #expect(try server.answer("POST", "/remote-load/1").text == "Remote load 1", "no method means any method")
        #expect(try server.answer("/remote-load/2").status == 404, "Accept must contain text/plain")
        let two = try server.answer("/remote-load/2?x=1", headers: [("Accept", "text/plain, */*")])
        #expect(two.text == "Remote load 2" && two.headers["Content-Type"] == "text/plain")
        #expect(try server.answer("/text-file").text == "Some text")
        let png = try server.answer("/image-file")
        let expected = try FileBytes.read(try root("remoteloader") + "/__files/favicon3.png")
        #expect(png.body == expected && png.headers["Content-Type"] == "image/png")
        #expect(try server.answer("/binary-file-from-header").headers["Content-Type"] == "image/jpg")
        #expect(try server.answer("/text-file-from-header").headers["Content-Type"] == "application/json")

        #expect(try server.answer("/todo/items").text == "<items><item>Buy milk</item></items>")
        let added = try server.answer("POST", "/todo/items", body: "Cancel newspaper subscription")
        #expect(added.status == 201)
        let after = try server.answer("/todo/items")
        #expect(after.text.contains("<item>Cancel newspaper subscription</item>"))
        #expect(after.headers["Matched-Stub-Id"] != nil)
    }

    @Test func classpathFileSourceServesSubfoldersAndDelays() throws {
        let server = try startServer(stubs: try root("classpath-filesource"))
        defer { server.stop() }
        #expect(try fetch(server.port, "/test").text == "THINGS!")
        #expect(try fetch(server.port, "/second_test").text == "testing")
        #expect(try server.answer("/slow-response").text == "THINGS!")
        #expect(server.reply("/slow-response").fixedDelay == .milliseconds(500))
    }

    @Test func testFileRootServesJSONBodiesAsWritten() throws {
        let server = try makeServer(stubs: try root("test-file-root"))
        let json = try server.answer("/testjsonmapping")
        #expect(json.headers["Content-Type"] == "application/json")
        #expect(
            json.text
                == #"{"bignumber":1234567890.12,"integer_as_float":2.0,"array":[1,2,3],"integer":2,"key":"value"}"#)
        #expect(try server.answer("/testmapping").text == "default test mapping")
    }
}

enum FileBytes {
    static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw FixtureError(description: "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
