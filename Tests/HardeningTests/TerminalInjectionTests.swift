import Foundation
import TestSupport
import Testing

/// Strings from an API or a stub file reach terminals and CI logs through every tool's text
/// output: none may print a raw ESC (or another control character) or start a line with
/// `::`, which GitHub Actions runs as a workflow command. The tools' own annotations are the
/// only `::` lines.
@Suite struct TerminalInjectionTests {
    /// `x ESC [2J LF ::error::INJECTED`, as JSON text.
    static let injectedJSON = #""x\u001b[2J\n::error::INJECTED""#

    /// An API whose pets carry the injected key and name, and whose vets are fine.
    static func hostileAPI() throws -> ScriptedServer {
        try ScriptedServer { path, connection in
            let body: String
            if path.hasPrefix("/api/pets") {
                let pet = #"{"firstName": \#(injectedJSON), "lastName": "Smith", "vetId": 1, \#(injectedJSON): 1}"#
                body = path == "/api/pets" ? "[\(pet)]" : pet
            } else {
                let vet = #"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#
                body = path == "/api/vets" ? "[\(vet)]" : vet
            }
            connection.write(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
            )
        }
    }

    /// The lines of `output` that GitHub Actions would take for workflow commands.
    static func commandLines(_ output: String) -> [Substring] {
        output.split(separator: "\n", omittingEmptySubsequences: false).filter {
            $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("::")
        }
    }

    static func expectNothingActs(_ output: String, allowing own: [String] = [], _ what: String) {
        #expect(!output.unicodeScalars.contains("\u{1B}"), "\(what): a raw ESC in \(output)")
        let commands = commandLines(output)
        #expect(
            commands.allSatisfy { line in own.contains { line.hasPrefix($0) } }, "\(what): \(commands) in \(output)")
    }

    @Test(arguments: ["text", "github", "junit"])
    func petcontractShowsTheKeyEscaped(format: String) async throws {
        let server = try Self.hostileAPI()
        defer { server.stop() }
        let result = try await ToolProcess.run(
            "petcontract", ["verify", "--live", "http://127.0.0.1:\(server.port)/api", "--format", format],
            timeout: 120)
        #expect(!result.timedOut)
        #expect(result.status == 1 || result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"x\u001b[2J\u000a::error::INJECTED"#), "\(result.stdout)")
        let own = format == "github" ? ["::error title=", "::warning title=", "::notice title="] : []
        Self.expectNothingActs(result.stdout, allowing: own, "petcontract --format \(format)")
        Self.expectNothingActs(result.stderr, "petcontract's standard error")
    }

    @Test func petvetShowsThePetNameEscaped() async throws {
        let server = try Self.hostileAPI()
        defer { server.stop() }
        let result = try await ToolProcess.run(
            "petvet", ["--base-url", "http://127.0.0.1:\(server.port)/api"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"x\u001b[2J\u000a::error::INJECTED Smith"#), "\(result.stdout)")
        Self.expectNothingActs(result.stdout, "petvet")
        Self.expectNothingActs(result.stderr, "petvet's standard error")
    }

    @Test func petmockValidateShowsStubValuesEscaped() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-injection")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("mappings"), withIntermediateDirectories: true)
        let mapping =
            #"{"request": {"url": "/x"}, "response": {"status": \#(Self.injectedJSON)}, \#(Self.injectedJSON): 1}"#
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: folder.file("mappings/bad.json")))
        let result = try await ToolProcess.run("petmock", ["validate", "--stubs", folder.path], timeout: 60)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"\u001b[2J\u000a::error::INJECTED"#), "\(result.stdout)")
        Self.expectNothingActs(result.stdout, "petmock validate")
        Self.expectNothingActs(result.stderr, "petmock validate's standard error")
    }
}
