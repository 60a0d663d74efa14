import APISchema
import ArgumentKit
import ContractKit
import HTTPCore
import JSONKit
import Platform

/// `petmock convert`: an OpenAPI document, JSON or YAML, written as JSON, for what reads JSON
/// only (a `StubSession` in an app's tests: libyaml is not in the iOS SDK).
enum ConvertCommand {
    static let openapi = Argument<String>.required(
        "openapi", value: "FILE", help: "The OpenAPI document (JSON or YAML).")
    static let out = Argument<String>.required(
        "out", value: "FILE", help: "The JSON file to write (replaced when it exists).")

    static let spec = CommandSpec(
        name: "petmock convert",
        abstract: "Write an OpenAPI document as JSON, for StubSession(openAPIDocument:).",
        arguments: [openapi, out],
        discussion: """
            The same document, each key in its order, two-space indented; it is read as an OpenAPI
            document first, so what is written is one that serve --openapi and StubSession accept.
            EXAMPLES:
              petmock convert --openapi openapi.yaml --out Tests/AppTests/openapi.json
            """,
        exitCodes: "0 written, 2 the document cannot be read or the file written, 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "convert", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let file = arguments[Self.openapi]
        let output = arguments[Self.out]
        // A document that cannot be read is thrown: the tool prints it escaped, exit 2.
        guard let bytes = try? FileSystem.read(file) else {
            throw ContractError.io(path: file, message: FileProblem.unreadable(file))
        }
        let document = try OpenAPIReader.document(bytes, source: file)
        _ = try OpenAPIReader().read(document, source: file)
        do {
            try FileSystem.writeAtomically(document.serializedBytes(.pretty) + [0x0A], to: output)
        } catch {
            writeError(TerminalText.escape("petmock: error: cannot write '\(output)': \(error)"))
            return .couldNotRun
        }
        writeOutput("petmock: wrote \(file) as JSON to \(output)")
        return .success
    }
}
