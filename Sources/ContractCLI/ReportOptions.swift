import APISchema
import ArgumentKit
import ContractKit
import Foundation
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--format`, `--output`, `--strict` and `--ignore`: how a report is filtered, rendered,
/// written, and turned into an exit code (``VerificationReport/outcome(strict:)``).
struct ReportOptions {
    static let format = Argument<ReportFormat>.choice(
        "format", value: "FORMAT", default: .text, help: "text, json, junit, github, sarif or html.")
    static let output = Argument<String?>.option(
        "output", short: "o", value: "FILE", help: "Write the report to FILE instead of standard output.")
    static let strict = Argument<Bool>.flag("strict", help: "Warnings fail the check too (exit 1).")
    /// `verify`'s `--strict`: the same flag, and a skipped operation leaves the check incomplete.
    static let strictVerify = Argument<Bool>.flag(
        "strict", help: "Warnings fail the check too (exit 1), and skipped operations (exit 2).")
    static let ignore = Argument<String?>.option(
        "ignore", value: "FILE", help: "Accepted findings, one 'ID PATH [OPERATION]' a line.")

    let format: ReportFormat
    let output: String?
    let strict: Bool
    let ignoreFile: String?

    init(_ arguments: ParsedArguments) {
        format = arguments[Self.format]
        output = arguments[Self.output]
        strict = arguments[Self.strict]
        ignoreFile = arguments[Self.ignore]
    }

    /// Applies the ignore file, writes the report, and returns the exit code.
    func finish(_ report: VerificationReport, tool: String) throws -> ExitCode {
        var report = report
        if let ignoreFile { report = report.applying(try IgnoreList(file: ignoreFile)) }
        let color =
            output == nil && format == .text
            && ReportRenderer.wantsColor(isTerminal: isatty(1) == 1, environment: ProcessInfo.processInfo.environment)
        let text = ReportRenderer(color: color, strict: strict).render(report, as: format)
        if let output {
            try Output.write(text, to: output)
            let summary = report.summary
            let checked = "\(summary.operations) operation\(summary.operations == 1 ? "" : "s") checked"
            let skipped = summary.skipped > 0 ? ", \(summary.skipped) skipped" : ""
            writeError(
                "\(tool): \(checked)\(skipped); \(summary.breaking) breaking, "
                    + "\(summary.warning) warnings, \(summary.info) info, \(summary.errors) errors; "
                    + "report written to \(output)")
        } else {
            print(text, terminator: "")
        }
        switch report.outcome(strict: strict) {
        case .passed: return .success
        case .failed: return .failure
        case .couldNotVerify: return .couldNotRun
        }
    }
}

/// Writing files the commands produce.
enum Output {
    /// Writes atomically (temporary file, then rename), creating parent folders.
    static func write(_ text: String, to path: String) throws {
        do throws(FileSystemError) {
            try FileSystem.createDirectory(FileSystem.directory(of: path))
            try FileSystem.writeAtomically(Array(text.utf8), to: path)
        } catch {
            throw ContractError.io(path: path, message: "cannot write: \(error.reason)")
        }
    }
}
