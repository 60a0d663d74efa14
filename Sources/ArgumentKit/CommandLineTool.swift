import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exit codes shared by every petkit executable (DESIGN.md).
public enum ExitCode: Int32, Sendable {
    /// Nothing wrong found.
    case success = 0
    /// The check ran and found a failure (breaking drift, invalid stubs).
    case failure = 1
    /// The check could not run (unreachable, timeout, bad contract).
    case couldNotRun = 2
    /// The command line was wrong.
    case usage = 64
}

/// A tool made of subcommands, each with its own ``CommandSpec`` and body.
///
/// Handles `--help`, usage errors (message, usage line, exit 64) and dispatch, so an
/// executable's `main` is one call.
package struct CommandLineTool: Sendable {
    /// A subcommand: its specification and what it runs.
    package struct Subcommand: Sendable {
        /// The verb typed after the tool name.
        package let verb: String
        /// The arguments and help.
        package let spec: CommandSpec
        /// The body; returns the process exit code.
        package let run: @Sendable (ParsedArguments) async throws -> ExitCode

        /// Creates a subcommand.
        package init(
            verb: String, spec: CommandSpec, run: @escaping @Sendable (ParsedArguments) async throws -> ExitCode
        ) {
            self.verb = verb
            self.spec = spec
            self.run = run
        }
    }

    /// The tool's name, for example `petmock`.
    package let name: String
    /// One line saying what the tool does.
    package let abstract: String
    /// The subcommands in help order.
    package let subcommands: [Subcommand]
    /// The verb used when the first word is an option or missing; nil requires a verb.
    package let defaultVerb: String?
    /// What `--version` prints after the name.
    package let version: String

    /// Creates a tool.
    package init(
        name: String, abstract: String, subcommands: [Subcommand], defaultVerb: String? = nil,
        version: String = petkitVersion
    ) {
        self.name = name
        self.abstract = abstract
        self.subcommands = subcommands
        self.defaultVerb = defaultVerb
        self.version = version
    }

    /// A tool that is one command (`tool --base-url URL`): no verb, the command's own help,
    /// and the same `--version`, error lines and exit codes as every other tool.
    package static func single(
        _ spec: CommandSpec, version: String = petkitVersion,
        run: @escaping @Sendable (ParsedArguments) async throws -> ExitCode
    ) -> CommandLineTool {
        CommandLineTool(
            name: spec.name, abstract: spec.abstract, subcommands: [Subcommand(verb: "", spec: spec, run: run)],
            defaultVerb: "", version: version)
    }

    /// Whether this is a tool of one command (``single(_:version:run:)``).
    private var isSingle: Bool { defaultVerb == "" && subcommands.count == 1 && subcommands[0].verb.isEmpty }

    /// Runs the tool on `arguments` (without the program name) and returns the exit code.
    package func run(_ arguments: [String]) async -> ExitCode {
        var words = arguments
        if words.first == "--version" {
            print("\(name) \(version)")
            return .success
        }
        if isSingle { return await run(subcommands[0], words, verb: "") }
        if words.first == "--help" || words.first == "-h" || words.first == "help" {
            if words.count > 1, let sub = subcommands.first(where: { $0.verb == words[1] }) {
                print(sub.spec.help)
            } else {
                print(help)
            }
            return .success
        }
        let verb: String
        if let first = words.first, !first.hasPrefix("-") {
            verb = first
            words.removeFirst()
        } else if let defaultVerb {
            verb = defaultVerb
        } else {
            writeError(errorLine(.missingSubcommand(known: subcommands.map(\.verb)), verb: ""))
            return .usage
        }
        guard let subcommand = subcommands.first(where: { $0.verb == verb }) else {
            writeError(errorLine(.unknownSubcommand(verb, known: subcommands.map(\.verb)), verb: ""))
            return .usage
        }
        return await run(subcommand, words, verb: verb)
    }

    private func run(_ subcommand: Subcommand, _ words: [String], verb: String) async -> ExitCode {
        if words.contains("--help") || words.contains("-h") {
            print(subcommand.spec.help)
            return .success
        }
        do {
            let parsed = try subcommand.spec.parse(words)
            return try await subcommand.run(parsed)
        } catch let error as ArgumentError {
            writeError(errorLine(error, verb: verb))
            return .usage
        } catch {
            writeError("\(name): error: \(TerminalText.escapeEachLine("\(error)"))")
            return .couldNotRun
        }
    }

    /// A usage error as one line: the error, the nearest valid word when one is near, and where
    /// the help is (`petmock: error: Unknown option '--prot' (did you mean '--port'?); see
    /// 'petmock serve --help'`). `verb` is the subcommand's, empty for the tool's own.
    func errorLine(_ error: ArgumentError, verb: String) -> String {
        let command = verb.isEmpty ? name : "\(name) \(verb)"
        // The words come from the command line: escaped before they reach a terminal or a CI log.
        return "\(name): error: \(TerminalText.escape("\(error)")); see '\(command) --help'"
    }

    /// Runs the tool on the process arguments and exits with its code.
    package func main() async -> Never {
        let code = await run(Array(CommandLine.arguments.dropFirst()))
        exit(code.rawValue)
    }

    /// The tool's help: its subcommands and their abstracts.
    package var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(name) <subcommand>", "", "SUBCOMMANDS:"]
        for sub in subcommands {
            let padded = sub.verb.count < 16 ? sub.verb + String(repeating: " ", count: 16 - sub.verb.count) : sub.verb
            lines.append("  \(padded)\(sub.spec.abstract)")
        }
        lines.append("")
        lines.append("OPTIONS:")
        lines.append("  --version               Show the version.")
        lines.append("  -h, --help              Show help information.")
        lines.append("")
        lines.append("  See '\(name) help <subcommand>' for detailed help.")
        lines.append("")
        lines.append("EXIT CODES: \(CommandSpec.standardExitCodes).")
        return lines.joined(separator: "\n")
    }
}

/// Writes a line to standard error at once.
package func writeError(_ message: String) {
    writeLine(message, to: 2)
}

/// Writes a line to standard output at once (unbuffered, so a reader such as a test waiting
/// for a readiness line sees it immediately).
package func writeOutput(_ message: String) {
    writeLine(message, to: 1)
}

private func writeLine(_ message: String, to descriptor: Int32) {
    var bytes = Array(message.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        offset += written
    }
}
