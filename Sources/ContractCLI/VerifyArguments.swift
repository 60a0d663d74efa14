import ArgumentKit
import ContractKit
import HTTPCore

/// `petcontract verify`'s arguments, declared once with their defaults and types (the help of
/// `--contract` names the app's contract when one is built in).
struct VerifyArguments {
    let live = Argument<String?>.httpURL(
        "live", value: "BASE_URL", help: "Call the API at BASE_URL (for example http://127.0.0.1:8081/api).")
    let stub = Argument<Bool>.flag(
        "stub", help: "Check stub files (DIR, default Stubs) or, with --url, a running petmock.")
    let dir = Argument<String?>.optionalPositional("dir", help: "The stub folder for --stub.")
    let url = Argument<String?>.httpURL("url", help: "With --stub: the base URL of a running petmock.")
    let contract: Argument<String?>
    let maxPerOperation = Argument<Int>.number(
        "max-per-operation", default: 20, in: 1...10_000, help: "The most calls per operation (distinct ids).")
    let timeout = Argument<Int>.number(
        "timeout", value: "SECONDS", default: 10, in: 1...3_600, help: "The time allowed for each request.")
    let header = Argument.repeated(
        "header", short: "H", value: "'NAME: VALUE'",
        help: "Send this header with every request (credentials, say); repeatable.",
        parsedBy: HTTPHeaders.Field.init(line:))
    let param = Argument.repeated(
        "param", value: "[OPERATION:]NAME=VALUE",
        help: "A parameter value (before any the contract or earlier responses give); "
            + "OPERATION (operationId or 'METHOD /path') scopes it; repeatable.",
        parsedBy: { (text: String) throws(CommandLineSelectionProblem) -> ParameterValue in
            do throws(SelectionProblem) {
                return try ParameterValue(parsing: text)
            } catch {
                throw CommandLineSelectionProblem(error)
            }
        })
    let operation = Argument<[String]>.repeated(
        "operation", value: "ID", help: "Check this operation (operationId or 'METHOD /path'); repeatable.")
    let include = Argument<[String]>.repeated(
        "include", value: "GLOB", help: "Check operations whose 'METHOD /path' or operationId match ('GET /repos/*').")
    let exclude = Argument<[String]>.repeated(
        "exclude", value: "GLOB", help: "Leave out operations whose 'METHOD /path' or operationId match ('*/admin/*').")
    let methods = Argument<String>.option(
        "methods", value: "GET,POST,...", default: "GET",
        help: "The methods whose operations are called live (the others are skipped)."
    ).map { text throws(ArgumentError) in try ContractCommands.methods(text) }
    let allowEmpty = Argument<Bool>.flag(
        "allow-empty", help: "Accept a run that checks no operation (without it: could not verify, exit 2).")
    let missingOptional = Argument<MissingOptionalLevel?>.choice(
        "missing-optional", value: "LEVEL",
        help: "ignore, info or warning: the level of optional properties missing or null "
            + "(default: warning for the app's contract, info for a third-party file).")

    init(builtIn: ConsumerContract?) {
        contract = .option(
            "contract", value: "FILE",
            help: builtIn.map { "An OpenAPI contract (default: \($0.title)'s, from the app's endpoints)." }
                ?? "The OpenAPI contract to check against (required: none is built in).")
    }

    /// Every argument, in help order.
    var all: [any ArgumentDeclaration] {
        [
            live, stub, dir, url, contract, maxPerOperation, timeout, header, param, operation, include, exclude,
            methods, missingOptional, allowEmpty,
        ]
    }
}

/// A selection problem in the command line's words: each part named by its option.
struct CommandLineSelectionProblem: Error, CustomStringConvertible {
    let problem: SelectionProblem

    init(_ problem: SelectionProblem) {
        self.problem = problem
    }

    var description: String {
        problem.message { part in
            switch part {
            case .operation: "--operation"
            case .include: "--include"
            case .exclude: "--exclude"
            case .parameter: "--param"
            }
        }
    }
}
