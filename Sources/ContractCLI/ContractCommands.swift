import APISchema
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
    package var tool: CommandLineTool {
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

    /// `--format`, `--output`, `--strict`, `--ignore`: every report-writing command has them
    /// (`verify`'s `--strict` says what it does to skipped operations).
    static func reportArguments(strict: Argument<Bool> = ReportOptions.strict) -> [any ArgumentDeclaration] {
        [ReportOptions.format, ReportOptions.output, strict, ReportOptions.ignore]
    }

    var generate: CommandLineTool.Subcommand {
        let name = name
        let builtIn = builtIn
        let defaultOutput = builtIn?.defaultOutput ?? "Contracts/contract.openapi.json"
        let output = Argument<String>.option(
            "output", short: "o", value: "FILE", default: defaultOutput,
            help: "Where to write the contract ('-' for standard output).")
        return CommandLineTool.Subcommand(
            verb: "generate",
            spec: CommandSpec(
                name: "\(name) generate",
                abstract: builtIn.map { "Write the OpenAPI 3.1 contract of what \($0.title)'s app calls." }
                    ?? "Write the OpenAPI 3.1 contract of the app's endpoints (none are built into this tool).",
                arguments: [output],
                exitCodes: "0 written, 2 could not write it (no contract built in, an unwritable file), 64 usage error")
        ) { arguments in
            guard let builtIn else {
                throw ContractError.noContract(
                    reason: "no app contract is built into \(name): build your own tool with ContractCLI's "
                        + "ContractTool(contract:)")
            }
            let (contract, _) = try builtIn.make()
            let text = OpenAPIWriter().text(contract)
            let output = arguments[output]
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
        let options = VerifyArguments(builtIn: builtIn)
        return CommandLineTool.Subcommand(
            verb: "verify",
            spec: CommandSpec(
                name: "\(name) verify",
                abstract: "Check a live API, a running stub server or stub files against the contract.",
                arguments: options.all + Self.reportArguments(strict: ReportOptions.strictVerify),
                discussion:
                    "An operation not checked (no value for a required parameter, a method --methods leaves out,\n"
                    + "no stub mapping for it) is skipped: counted beside those checked, a failure only with --strict.\n"
                    + "A run that checks no operation could not verify (exit 2) unless --allow-empty.",
                exitCodes: "0 nothing breaking, 1 breaking drift (or warnings with --strict), 2 could not verify "
                    + "(unreachable, timeout, bad contract, every operation answering 404: not the API's base URL, "
                    + "no operation checked, operations skipped with --strict), 64 usage error")
        ) { arguments in
            let live = arguments[options.live]
            let stub = arguments[options.stub]
            guard (live != nil) != stub else {
                throw ArgumentError.invalidCombination(
                    "Give exactly one of '--live BASE_URL' and '--stub [DIR | --url URL]'")
            }
            if live != nil && (arguments.isPresent(options.dir) || arguments.isPresent(options.url)) {
                throw ArgumentError.invalidCombination("'--url' and a stub folder go with '--stub', not '--live'")
            }
            if arguments.isPresent(options.dir) && arguments.isPresent(options.url) {
                throw ArgumentError.invalidCombination("Give a stub folder or '--url', not both")
            }
            let report = ReportOptions(arguments)
            let timeout = arguments[options.timeout]
            let headers = HTTPHeaders(arguments[options.header])
            let calling = live != nil || arguments.isPresent(options.url)
            for option in [options.param, options.methods] as [any ArgumentDeclaration]
            where arguments.isPresent(option) && !calling {
                throw ArgumentError.invalidCombination(
                    "'--\(option.spec.name)' goes with '--live' or '--stub --url' (calls), not with stub files")
            }
            let parameterValues = arguments[options.param]
            let missingOptional = arguments[options.missingOptional]
            let selection = OperationSelection(
                operations: arguments[options.operation], include: arguments[options.include],
                exclude: arguments[options.exclude])
            let source = ContractSource(file: arguments[options.contract], builtIn: builtIn)
            let (contract, models) = try source.load()
            let selected: Contract
            do throws(SelectionProblem) {
                try ParameterValue.check(parameterValues, in: contract)
                selected = try selection.apply(to: contract)
            } catch {
                throw ArgumentError.invalidCombination(CommandLineSelectionProblem(error).description)
            }
            var verification: VerificationReport
            if let baseURL = live ?? arguments[options.url] {
                let verifier = LiveVerifier(
                    contract: selected, models: models, transport: try Transport.make(timeout: timeout),
                    configuration: LiveVerifier.Configuration(
                        maxPerOperation: arguments[options.maxPerOperation], timeout: .seconds(timeout),
                        headers: headers, progress: ProgressLine.onTerminal()?.show, parameterValues: parameterValues,
                        methods: arguments[options.methods]))
                verification = await verifier.verify(baseURL: baseURL, contractName: source.name)
                // The hint for a wrong base URL names the option that gave it.
                let option = live != nil ? "--live" : "--url"
                for index in verification.errors.indices {
                    if let wrong = verification.errors[index].wrongBaseURL {
                        verification.errors[index].message = wrong.message(option: option)
                    }
                }
                ProgressLine.onTerminal()?.clear()
            } else {
                verification = StubVerifier(
                    contract: contract, models: models,
                    selected: selection.isEmpty ? nil : Set(selected.operations.map(\.name))
                ).verify(directory: arguments[options.dir] ?? "Stubs", contractName: source.name)
            }
            let level =
                missingOptional ?? MissingOptionalLevel.defaultLevel(for: contract, builtIn: source.file == nil)
            verification = verification.applying(missingOptional: level)
            if missingOptional == nil && level == .info {
                verification.notes.append(
                    "optional properties missing or null are info: a third-party contract (no x-swift-type) "
                        + "does not say what the app needs (--missing-optional warning to change)")
            }
            if !arguments[options.allowEmpty] { verification = verification.requiringAnOperationChecked() }
            return try report.finish(verification, tool: name)
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
        let old = Argument<String>.positional("old", help: "The contract clients were built against.")
        let new = Argument<String>.positional("new", help: "The changed contract.")
        return CommandLineTool.Subcommand(
            verb: "diff",
            spec: CommandSpec(
                name: "\(name) diff", abstract: "Report breaking changes between two contract files.",
                arguments: [old, new] + Self.reportArguments(),
                exitCodes: "0 nothing breaking, 1 breaking changes, 2 a contract cannot be read, 64 usage error")
        ) { arguments in
            let options = ReportOptions(arguments)
            let oldFile = arguments[old]
            let newFile = arguments[new]
            let reader = OpenAPIReader()
            let report = ContractDiff().report(
                old: try reader.read(file: oldFile), new: try reader.read(file: newFile), oldName: oldFile,
                newName: newFile
            )
            return try options.finish(report, tool: name)
        }
    }
}
