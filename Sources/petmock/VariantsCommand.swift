import ArgumentKit
import StubServer

/// `petmock variants`: the file variants a stub folder defines and the generated forms.
enum VariantsCommand {
    static let spec = CommandSpec(
        name: "petmock variants", abstract: "List the variants of a stub folder: file and generated.",
        arguments: [
            .option("stubs", value: "DIR", default: "Stubs", help: "The stub folder (mappings/, __files/)."),
            .option("format", value: "FORMAT", default: "text", help: "'text' or 'json'."),
        ])

    static let subcommand = CommandLineTool.Subcommand(verb: "variants", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let format = try arguments.choice("format", from: ["text", "json"]) ?? "text"
        let report: StubLoadReport
        do {
            report = try StubLoader(root: arguments.value("stubs") ?? "Stubs").load()
        } catch {
            writeError("petmock: error: \(error)")
            return .couldNotRun
        }
        for problem in report.problems where problem.isError { writeError(problem.description) }
        let catalog = VariantCatalog(mappings: report.mappings)
        writeOutput(format == "json" ? catalog.json.serialized(.pretty) : catalog.description)
        return .success
    }
}
