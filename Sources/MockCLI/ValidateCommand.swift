import ArgumentKit
import Foundation
import HTTPCore
import MockEngine
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `petmock validate`: every problem in every stub file, compiler style; exit 1 if any error.
enum ValidateCommand {
    static let stubs = ServeCommand.stubs
    static let strict = Argument<Bool>.flag(
        "strict", help: "Fail on warnings (unknown fields, nested regex quantifiers) too.")

    static let globalResponseTemplating = Argument<Bool>.flag(
        "global-response-templating",
        help: "Check every response as a template, as 'serve --global-response-templating' renders them.")

    static let spec = CommandSpec(
        name: "petmock validate", abstract: "Check every stub file and list every problem.",
        arguments: [stubs, strict, globalResponseTemplating],
        discussion: """
            Problems print as FILE: error|warning: JSONPATH: expected ..., found ...
            A folder with no mapping at all fails: mapping files are read from DIR/mappings/ only.
            """,
        exitCodes: "0 no errors, 1 errors, no mapping at all, or warnings with --strict, 2 the folder cannot be "
            + "read, 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "validate", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let directory = arguments[Self.stubs]
        let report: StubLoadReport
        do {
            report = try StubLoader(
                root: directory, globalResponseTemplating: arguments[Self.globalResponseTemplating]
            ).load()
        } catch {
            writeError("petmock: error: \(error)")
            return .couldNotRun
        }
        let color = TerminalText.wantsColor(
            isTerminal: isatty(1) == 1, environment: ProcessInfo.processInfo.environment)
        for problem in report.problems { writeOutput(problem.description(color: color)) }
        let files = report.files.count
        writeOutput(
            "\(directory): \(report.mappings.count) mapping\(report.mappings.count == 1 ? "" : "s") in \(files) "
                + "file\(files == 1 ? "" : "s"), \(report.errorCount) error\(report.errorCount == 1 ? "" : "s"), "
                + "\(report.warningCount) warning\(report.warningCount == 1 ? "" : "s")")
        let failed =
            report.errorCount > 0 || report.mappings.isEmpty || (arguments[Self.strict] && report.warningCount > 0)
        return failed ? .failure : .success
    }
}
