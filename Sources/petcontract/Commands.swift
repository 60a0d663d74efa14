import ArgumentKit
import ContractKit
import Foundation
import HTTPCore

/// The subcommands: argument specifications and the wiring from parsed arguments to ContractKit.
enum Commands {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let reportArguments: [ArgumentSpec] = [
        .option("format", value: "FORMAT", default: "text", help: "text, json, junit, github or sarif."),
        .option("output", short: "o", value: "FILE", help: "Write the report to FILE instead of standard output."),
        .flag("strict", help: "Warnings fail the check too (exit 1)."),
        .option("ignore", value: "FILE", help: "Accepted findings, one 'ID PATH [OPERATION]' a line."),
    ]

    static let generate = CommandLineTool.Subcommand(
        verb: "generate",
        spec: CommandSpec(
            name: "petcontract generate", abstract: "Write the OpenAPI 3.1 contract derived from PetModels.",
            arguments: [
                .option(
                    "output", short: "o", value: "FILE", default: "Contracts/petapi.openapi.json",
                    help: "Where to write the contract ('-' for standard output).")
            ])
    ) { arguments in
        let (contract, _) = try PetAPIContract.make()
        let text = OpenAPIWriter().text(contract)
        let output = arguments.value("output") ?? "Contracts/petapi.openapi.json"
        if output == "-" {
            print(text, terminator: "")
        } else {
            try Output.write(text, to: output)
            writeError("petcontract: wrote \(output) (\(contract.operations.count) operations)")
        }
        return .success
    }

    static let verify = CommandLineTool.Subcommand(
        verb: "verify",
        spec: CommandSpec(
            name: "petcontract verify",
            abstract: "Check a live API, a running stub server or stub files against the contract.",
            arguments: [
                .option(
                    "live", value: "BASE_URL", help: "Call the API at BASE_URL (for example http://127.0.0.1:8081/api)."
                ),
                .flag("stub", help: "Check stub files (DIR, default Stubs) or, with --url, a running petmock."),
                .positional("dir", optional: true, help: "The stub folder for --stub."),
                .option("url", value: "URL", help: "With --stub: the base URL of a running petmock."),
                .option(
                    "contract", value: "FILE", help: "An OpenAPI contract (default: the one derived from PetModels)."),
                .option(
                    "max-per-operation", value: "N", default: "20", help: "The most calls per operation (distinct ids)."
                ),
                .option("timeout", value: "SECONDS", default: "10", help: "The time allowed for each request."),
                .option(
                    "header", short: "H", value: "'NAME: VALUE'", repeatable: true,
                    help: "Send this header with every request (credentials, say); repeatable."),
            ] + reportArguments,
            discussion: """
                EXIT CODES: 0 nothing breaking, 1 breaking drift (or warnings with --strict),
                            2 could not verify (unreachable, timeout, bad contract), 64 usage error.
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
        let options = try ReportOptions(arguments)
        let maxPerOperation = try arguments.int("max-per-operation", in: 1...10_000) ?? 20
        let timeout = try arguments.int("timeout", in: 1...3_600) ?? 10
        let headers = HTTPHeaders(try arguments.values("header", parsedBy: HTTPHeaders.Field.init(line:)))
        let source = ContractSource(file: arguments.value("contract"))
        let (contract, models) = try source.load()
        let report: VerificationReport
        if let baseURL = live ?? arguments.value("url") {
            let verifier = LiveVerifier(
                contract: contract, models: models, transport: try Transport.make(timeout: timeout),
                configuration: LiveVerifier.Configuration(
                    maxPerOperation: maxPerOperation, timeout: .seconds(timeout), headers: headers))
            report = await verifier.verify(baseURL: baseURL, contractName: source.name)
        } else {
            let directory = arguments.value("dir") ?? "Stubs"
            report = StubVerifier(contract: contract, models: models).verify(
                directory: directory, contractName: source.name)
        }
        return try options.finish(report)
    }

    static let diff = CommandLineTool.Subcommand(
        verb: "diff",
        spec: CommandSpec(
            name: "petcontract diff", abstract: "Report breaking changes between two contract files.",
            arguments: [
                .positional("old", help: "The contract clients were built against."),
                .positional("new", help: "The changed contract."),
            ] + reportArguments,
            discussion:
                "EXIT CODES: 0 nothing breaking, 1 breaking changes, 2 a contract cannot be read, 64 usage error.")
    ) { arguments in
        let options = try ReportOptions(arguments)
        guard let oldFile = arguments.value("old"), let newFile = arguments.value("new") else {
            throw ArgumentError.missingArgument("old")
        }
        let reader = OpenAPIReader()
        let report = ContractDiff().report(
            old: try reader.read(file: oldFile), new: try reader.read(file: newFile), oldName: oldFile, newName: newFile
        )
        return try options.finish(report)
    }
}
