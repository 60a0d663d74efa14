import ArgumentKit
import ContractKit

/// The `petmock` command line (serve, record, validate, variants, generate) as a library: give it the
/// app's contract, and `petmock record` crawls and checks against that contract by default.
///
/// ```swift
/// import MockCLI
/// import MyAppAPI                       // the module that declares the app's endpoints
/// await MockTool(contract: MyApp.contract).main()
/// ```
public struct MockTool: Sendable {
    /// The contract `record --crawl` walks and recordings are checked against when no
    /// `--contract` is given; nil for a tool that needs `--contract` for those.
    public let contract: ConsumerContract?
    /// The tool's name in help and messages.
    public let name: String

    /// Creates the command line.
    public init(name: String = "petmock", contract: ConsumerContract?) {
        self.name = name
        self.contract = contract
    }

    /// The subcommands, in help order.
    package var tool: CommandLineTool {
        CommandLineTool(
            name: name, abstract: "A WireMock-compatible stub server with every broken variant of the API.",
            subcommands: [
                ServeCommand.subcommand, RecordCommand.subcommand(contract: contract), ValidateCommand.subcommand,
                VariantsCommand.subcommand, GenerateCommand.subcommand, ConvertCommand.subcommand,
                CertCommand.subcommand,
            ])
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
