import ArgumentKit
import ContractKit
import Foundation
import HTTPCore

/// The `petcontract` command line (generate, verify, diff; every report format and exit
/// code) for any app: hand it the app's contract and an executable of three lines is the
/// app's own `petcontract`.
///
/// ```swift
/// import ContractCLI
/// import MyAppAPI                       // the module that declares the app's endpoints
/// await ContractTool(contract: MyApp.contract).main()
/// ```
public struct ContractTool: Sendable {
    /// The app's contract: what `generate` writes and `verify` checks by default, and the
    /// models that decode bodies; nil for a tool that works from contract files only.
    public let contract: ConsumerContract?
    /// The tool's name in help and messages.
    public let name: String

    /// Creates the command line for an app's contract.
    public init(name: String = "petcontract", contract: ConsumerContract?) {
        self.name = name
        self.contract = contract
    }

    /// The subcommands.
    public var tool: CommandLineTool {
        let commands = ContractCommands(name: name, builtIn: contract)
        return CommandLineTool(
            name: name,
            abstract: contract.map {
                "Contracts from \($0.title)'s Codable models; drift verification of a live API or stubs."
            }
                ?? "Drift verification of a live API or stubs against OpenAPI contracts.",
            subcommands: [commands.generate, commands.verify, commands.diff])
    }

    /// Runs on `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) async -> ExitCode {
        await tool.run(arguments)
    }

    /// Runs on the process arguments and exits with the code.
    public func main() async -> Never {
        await tool.main()
    }
}

/// The subcommands: argument specifications and the wiring from parsed arguments to ContractKit.
struct ContractCommands {
    let name: String
    let builtIn: ConsumerContract?

    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let reportArguments: [ArgumentSpec] = [
        .option("format", value: "FORMAT", default: "text", help: "text, json, junit, github, sarif or html."),
        .option("output", short: "o", value: "FILE", help: "Write the report to FILE instead of standard output."),
        .flag("strict", help: "Warnings fail the check too (exit 1)."),
        .option("ignore", value: "FILE", help: "Accepted findings, one 'ID PATH [OPERATION]' a line."),
    ]

    var generate: CommandLineTool.Subcommand {
        let name = name
        let builtIn = builtIn
        let defaultOutput = builtIn?.defaultOutput ?? "Contracts/contract.openapi.json"
        return CommandLineTool.Subcommand(
            verb: "generate",
            spec: CommandSpec(
                name: "\(name) generate",
                abstract: builtIn.map { "Write the OpenAPI 3.1 contract of what \($0.title)'s app calls." }
                    ?? "Write the OpenAPI 3.1 contract of the app's endpoints (none are built into this tool).",
                arguments: [
                    .option(
                        "output", short: "o", value: "FILE", default: defaultOutput,
                        help: "Where to write the contract ('-' for standard output).")
                ])
        ) { arguments in
            guard let builtIn else {
                throw ContractError.noContract(
                    reason: "no app contract is built into \(name): build your own tool with ContractCLI's "
                        + "ContractTool(contract:)")
            }
            let (contract, _) = try builtIn.make()
            let text = OpenAPIWriter().text(contract)
            let output = arguments.value("output") ?? defaultOutput
            if output == "-" {
                print(text, terminator: "")
            } else {
                try Output.write(text, to: output)
                let count = contract.operations.count
                writeError("\(name): wrote \(output) (\(count) operation\(count == 1 ? "" : "s"))")
            }
            return .success
        }
    }

    var verify: CommandLineTool.Subcommand {
        let name = name
        let builtIn = builtIn
        return CommandLineTool.Subcommand(
            verb: "verify",
            spec: CommandSpec(
                name: "\(name) verify",
                abstract: "Check a live API, a running stub server or stub files against the contract.",
                arguments: [
                    .option(
                        "live", value: "BASE_URL",
                        help: "Call the API at BASE_URL (for example http://127.0.0.1:8081/api)."
                    ),
                    .flag("stub", help: "Check stub files (DIR, default Stubs) or, with --url, a running petmock."),
                    .positional("dir", optional: true, help: "The stub folder for --stub."),
                    .option("url", value: "URL", help: "With --stub: the base URL of a running petmock."),
                    .option(
                        "contract", value: "FILE",
                        help: builtIn.map { "An OpenAPI contract (default: \($0.title)'s, from the app's endpoints)." }
                            ?? "The OpenAPI contract to check against (required: none is built in)."),
                    .option(
                        "max-per-operation", value: "N", default: "20",
                        help: "The most calls per operation (distinct ids)."
                    ),
                    .option("timeout", value: "SECONDS", default: "10", help: "The time allowed for each request."),
                    .option(
                        "header", short: "H", value: "'NAME: VALUE'", repeatable: true,
                        help: "Send this header with every request (credentials, say); repeatable."),
                    .option(
                        "param", value: "[OPERATION:]NAME=VALUE", repeatable: true,
                        help: "A parameter value (before any the contract or earlier responses give); "
                            + "OPERATION (operationId or 'METHOD /path') scopes it; repeatable."),
                    .option(
                        "operation", value: "ID", repeatable: true,
                        help: "Check this operation (operationId or 'METHOD /path'); repeatable."),
                    .option(
                        "include", value: "GLOB", repeatable: true,
                        help: "Check operations whose 'METHOD /path' or operationId match ('GET /repos/*')."),
                    .option(
                        "exclude", value: "GLOB", repeatable: true,
                        help: "Leave out operations whose 'METHOD /path' or operationId match ('*/admin/*')."),
                    .option(
                        "methods", value: "GET,POST,...", default: "GET",
                        help: "The methods whose operations are called live (others get a note)."),
                    .option(
                        "missing-optional", value: "LEVEL",
                        help: "ignore, info or warning: the level of optional properties missing or null "
                            + "(default: warning for the app's contract, info for a third-party file)."),
                ] + Self.reportArguments,
                discussion: """
                    EXIT CODES: 0 nothing breaking, 1 breaking drift (or warnings with --strict),
                                2 could not verify (unreachable, timeout, bad contract), 64 usage error.
                    An operation with no value for a required parameter is skipped (info), not failed.
                    """)
        ) { arguments in
            let live = arguments.value("live")
            let stub = arguments.flag("stub")
            guard (live != nil) != stub else {
                throw ArgumentError.invalidCombination(
                    "Give exactly one of '--live BASE_URL' and '--stub [DIR | --url URL]'")
            }
            if live != nil && (arguments.isPresent("dir") || arguments.isPresent("url")) {
                throw ArgumentError.invalidCombination("'--url' and a stub folder go with '--stub', not '--live'")
            }
            if arguments.isPresent("dir") && arguments.isPresent("url") {
                throw ArgumentError.invalidCombination("Give a stub folder or '--url', not both")
            }
            for option in ["live", "url"] {
                _ = try arguments.httpURL(option)
            }
            let options = try ReportOptions(arguments)
            let maxPerOperation = try arguments.int("max-per-operation", in: 1...10_000) ?? 20
            let timeout = try arguments.int("timeout", in: 1...3_600) ?? 10
            let headers = HTTPHeaders(try arguments.values("header", parsedBy: HTTPHeaders.Field.init(line:)))
            let calling = live != nil || arguments.isPresent("url")
            for option in ["param", "methods"] where arguments.isPresent(option) && !calling {
                throw ArgumentError.invalidCombination(
                    "'--\(option)' goes with '--live' or '--stub --url' (calls), not with stub files")
            }
            let parameterValues = try arguments.values("param", parsedBy: ParameterValue.init(parsing:))
            let methods = try Self.methods(arguments.value("methods") ?? "GET")
            let missingOptional = try arguments.choice(
                "missing-optional", from: MissingOptionalLevel.allCases.map(\.rawValue)
            ).flatMap(MissingOptionalLevel.init(rawValue:))
            let selection = OperationSelection(
                operations: arguments.values("operation"), include: arguments.values("include"),
                exclude: arguments.values("exclude"))
            let source = ContractSource(file: arguments.value("contract"), builtIn: builtIn)
            let (contract, models) = try source.load()
            let selected: Contract
            do throws(SelectionProblem) {
                try ParameterValue.check(parameterValues, in: contract)
                selected = try selection.apply(to: contract)
            } catch {
                throw ArgumentError.invalidCombination(error.description)
            }
            var report: VerificationReport
            if let baseURL = live ?? arguments.value("url") {
                let verifier = LiveVerifier(
                    contract: selected, models: models, transport: try Transport.make(timeout: timeout),
                    configuration: LiveVerifier.Configuration(
                        maxPerOperation: maxPerOperation, timeout: .seconds(timeout), headers: headers,
                        progress: ProgressLine.onTerminal()?.show, parameterValues: parameterValues,
                        methods: methods))
                report = await verifier.verify(baseURL: baseURL, contractName: source.name)
                ProgressLine.onTerminal()?.clear()
            } else {
                let directory = arguments.value("dir") ?? "Stubs"
                report = StubVerifier(
                    contract: contract, models: models,
                    selected: selection.isEmpty ? nil : Set(selected.operations.map(\.name))
                ).verify(
                    directory: directory, contractName: source.name)
            }
            let level =
                missingOptional ?? MissingOptionalLevel.defaultLevel(for: contract, builtIn: source.file == nil)
            report = report.applying(missingOptional: level)
            if missingOptional == nil && level == .info {
                report.notes.append(
                    "optional properties missing or null are info: a third-party contract (no x-swift-type) "
                        + "does not say what the app needs (--missing-optional warning to change)")
            }
            return try options.finish(report, tool: name)
        }
    }

    /// `--methods GET,POST`: known HTTP methods, upper-cased.
    static func methods(_ text: String) throws(ArgumentError) -> Set<HTTPMethod> {
        var methods: Set<HTTPMethod> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard OpenAPIReader.methodNames.contains(name) else {
                throw .invalidValue(
                    option: "--methods", value: text,
                    expected: "methods separated by commas, of " + OpenAPIReader.methodNames.joined(separator: ", "))
            }
            methods.insert(HTTPMethod(rawValue: name.uppercased()))
        }
        return methods
    }

    var diff: CommandLineTool.Subcommand {
        let name = name
        return CommandLineTool.Subcommand(
            verb: "diff",
            spec: CommandSpec(
                name: "\(name) diff", abstract: "Report breaking changes between two contract files.",
                arguments: [
                    .positional("old", help: "The contract clients were built against."),
                    .positional("new", help: "The changed contract."),
                ] + Self.reportArguments,
                discussion:
                    "EXIT CODES: 0 nothing breaking, 1 breaking changes, 2 a contract cannot be read, 64 usage error.")
        ) { arguments in
            let options = try ReportOptions(arguments)
            guard let oldFile = arguments.value("old"), let newFile = arguments.value("new") else {
                throw ArgumentError.missingArgument("old")
            }
            let reader = OpenAPIReader()
            let report = ContractDiff().report(
                old: try reader.read(file: oldFile), new: try reader.read(file: newFile), oldName: oldFile,
                newName: newFile
            )
            return try options.finish(report, tool: name)
        }
    }
}
