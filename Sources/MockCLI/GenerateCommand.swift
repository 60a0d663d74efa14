import APISchema
import ArgumentKit
import ContractKit
import OpenAPIMock
import Platform

/// `petmock generate`: the WireMock stub folder that answers as `serve --openapi` does, made
/// from the document answers themselves.
enum GenerateCommand {
    static let openapi = Argument<String>.required(
        "openapi", value: "FILE", help: "The OpenAPI document (JSON or YAML).")
    static let out = Argument<String>.required(
        "out", value: "DIR", help: "The stub folder to write (mappings/, __files/).")
    static let basePath = Argument<String?>.option(
        "base-path", value: "PATH",
        help: "Where the document's paths are mounted (default: the path of its first servers URL, else /).")
    static let force = Argument<Bool>.flag(
        "force", help: "Write into a folder that is not empty, replacing files of the same names.")

    static let spec = CommandSpec(
        name: "petmock generate",
        abstract: "Write a stub folder that answers as 'serve --openapi' does.",
        arguments: [openapi, out, basePath, force],
        discussion: """
            One mapping per operation and documented status, bodies in __files/. A plain request gets the
            status serve answers with no Prefer; Prefer: code=NNN reaches the others; each named example
            is a variant: Prefer: example=NAME (with code=NNN too for a status other than the default).
            EXAMPLES:
              petmock generate --openapi items.yaml --out Stubs
              petmock serve --stubs Stubs
            """,
        exitCodes: "0 written, 2 the document cannot be read or the folder written (or it is not empty without "
            + "--force), 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "generate", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let file = arguments[Self.openapi]
        let directory = arguments[Self.out]
        guard let contract = OpenAPIDocument.read(file) else { return .couldNotRun }
        if !arguments[Self.force], let names = try? FileSystem.names(in: directory), !names.isEmpty {
            writeError("petmock: error: '\(directory)' is not empty; pass --force to write into it")
            return .couldNotRun
        }
        let responder = OpenAPIResponder(contract: contract, basePath: arguments[Self.basePath])
        let stubs = DocumentStubSet(responder: responder)
        do {
            try stubs.write(to: directory)
        } catch {
            let (path, reason) = error.pathAndReason
            writeError("petmock: error: \(path): \(reason)")
            return .couldNotRun
        }
        for note in stubs.notes { writeError("petmock: note: \(note)") }
        let count = stubs.stubs.count
        let variants = stubs.stubs.count { $0.example != nil }
        writeOutput(
            "petmock: wrote \(count) mapping\(count == 1 ? "" : "s") (\(variants) named example"
                + "\(variants == 1 ? "" : "s")) for \(responder.operationCount) operation"
                + "\(responder.operationCount == 1 ? "" : "s") of \(file) at "
                + "\(responder.basePath.isEmpty ? "/" : responder.basePath) to \(directory)")
        return .success
    }
}
