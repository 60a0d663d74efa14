import ArgumentKit
import MockEngine
import StubServerKit

/// `petmock variants`: the file variants a stub folder defines and the generated forms.
enum VariantsCommand {
    enum Format: String, CaseIterable, Sendable { case text, json }

    static let stubs = ServeCommand.stubs
    static let format = Argument<Format>.choice("format", value: "FORMAT", default: .text, help: "'text' or 'json'.")

    static let spec = CommandSpec(
        name: "petmock variants", abstract: "List the variants of a stub folder: file and generated.",
        arguments: [stubs, format], exitCodes: "0 listed, 2 the folder cannot be read, 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "variants", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let format = arguments[Self.format]
        let report: StubLoadReport
        do {
            report = try StubLoader(root: arguments[Self.stubs]).load()
        } catch {
            writeError("petmock: error: \(error)")
            return .couldNotRun
        }
        for problem in report.problems where problem.isError { writeError(problem.description) }
        let catalog = VariantCatalog(mappings: report.mappings)
        writeOutput(format == .json ? catalog.json.serialized(.pretty) : catalog.description)
        return .success
    }
}
