import APISchema
import ArgumentKit
import ContractKit
import HTTPCore
import OpenAPIMock
import Platform
import StubFormat

/// `petmock generate`: the WireMock stub folder that answers as `serve --openapi` (or
/// `serve --postman`) does, made from the document's answers themselves (or the collection's
/// stubs), written through StubFormat's one writer.
enum GenerateCommand {
    static let openapi = Argument<String?>.option(
        "openapi", value: "FILE", help: "The OpenAPI document (JSON or YAML).")
    static let out = Argument<String>.required(
        "out", value: "DIR", help: "The stub folder to write (mappings/, __files/).")
    static let basePath = Argument<String?>.option(
        "base-path", value: "PATH",
        help: "Where the document's paths are mounted (default: the path of its first servers URL, else /; "
            + "needs --openapi).")
    static let force = Argument<Bool>.flag(
        "force", help: "Write into a folder that is not empty, replacing files of the same names.")

    static let spec = CommandSpec(
        name: "petmock generate",
        abstract: "Write a stub folder that answers as 'serve --openapi' or 'serve --postman' does.",
        arguments: [openapi] + PostmanInput.arguments + [out, basePath, force],
        discussion: """
            One mapping per operation and documented status, bodies in __files/. A plain request gets the
            status serve answers with no Prefer; Prefer: code=NNN reaches the others; each named example
            is a variant: Prefer: example=NAME (with code=NNN too for a status other than the default).
            With --postman (instead of --openapi), one mapping per saved example of the collection, bodies
            inline; examples of the same request after the first are variants named after them.
            EXAMPLES:
              petmock generate --openapi items.yaml --out Stubs
              petmock serve --stubs Stubs
              petmock generate --postman pets.postman_collection.json --out Stubs
            """,
        exitCodes:
            "0 written, 2 the document or collection cannot be read or the folder written (or it is not empty without "
            + "--force), 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "generate", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let postman = try PostmanInput.from(arguments)
        let directory = arguments[Self.out]
        switch (arguments[Self.openapi], postman) {
        case (nil, nil):
            throw ArgumentError.invalidCombination(
                "pass --openapi FILE or --postman FILE: the stubs come from one of them")
        case (_?, _?):
            throw ArgumentError.invalidCombination("--openapi and --postman: pass one of them")
        case (nil, let collection?):
            if let basePath = arguments[Self.basePath] {
                throw ArgumentError.invalidValue(
                    option: "--base-path", value: basePath, expected: "--openapi FILE beside it")
            }
            guard let set = collection.read() else { return .couldNotRun }
            guard isWritable(directory, force: arguments[Self.force]) else { return .couldNotRun }
            do {
                try StubFolderWriter(folder: StubFolder(root: directory)).write(mappings: set.mappings)
            } catch {
                let (path, reason) = error.pathAndReason
                writeError("petmock: error: \(path): \(reason)")
                return .couldNotRun
            }
            let count = set.mappings.count
            let variants = set.mappings.count { $0.variant != nil }
            writeOutput(
                "petmock: wrote \(count) mapping\(count == 1 ? "" : "s") (\(variants) variant"
                    + "\(variants == 1 ? "" : "s")) for \(set.requestCount) request\(set.requestCount == 1 ? "" : "s") of "
                    + "\(TerminalText.escape(collection.file)) to \(directory)")
            return .success
        case (let file?, nil):
            return try generate(openapi: file, arguments: arguments)
        }
    }

    /// Whether the folder may be written: empty or missing, or `--force` given.
    private static func isWritable(_ directory: String, force: Bool) -> Bool {
        if !force, let names = try? FileSystem.names(in: directory), !names.isEmpty {
            writeError("petmock: error: '\(directory)' is not empty; pass --force to write into it")
            return false
        }
        return true
    }

    private static func generate(openapi file: String, arguments: ParsedArguments) throws -> ExitCode {
        let directory = arguments[Self.out]
        guard let contract = OpenAPIDocument.read(file) else { return .couldNotRun }
        guard isWritable(directory, force: arguments[Self.force]) else { return .couldNotRun }
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
