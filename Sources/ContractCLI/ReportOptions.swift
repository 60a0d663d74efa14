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
/// written, and turned into an exit code.
struct ReportOptions {
    let format: ReportFormat
    let output: String?
    let strict: Bool
    let ignoreFile: String?

    init(_ arguments: ParsedArguments) throws(ArgumentError) {
        let name = try arguments.choice("format", from: ContractCommands.formats) ?? "text"
        format = ReportFormat(rawValue: name) ?? .text
        output = arguments.value("output")
        strict = arguments.flag("strict")
        ignoreFile = arguments.value("ignore")
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
            writeError(
                "\(tool): \(summary.breaking) breaking, \(summary.warning) warnings, \(summary.info) info, "
                    + "\(summary.errors) errors; report written to \(output)")
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
