import APISchema
import ArgumentKit
import HTTPCore
import JSONKit
import MockEngine
import OpenAPIMock
import StubFormat
import StubServerKit

/// `petmock variants`: the file variants a stub folder defines and the generated forms; with
/// `--openapi`, a document's named examples and each operation's JSON fields; with `--postman`,
/// a collection's examples. The sources are read as `serve` reads them (``StubSources``).
enum VariantsCommand {
    enum Format: String, CaseIterable, Sendable { case text, json }

    static let stubs = ServeCommand.stubs
    static let format = Argument<Format>.choice("format", value: "FORMAT", default: .text, help: "'text' or 'json'.")
    static let openapi = Argument<String?>.option(
        "openapi", value: "FILE",
        help: "List the variants of an OpenAPI document's answers (as 'serve --openapi' gives them) instead.")
    static let basePath = ServeCommand.basePath

    static let spec = CommandSpec(
        name: "petmock variants",
        abstract: "List the variants of a stub folder, an OpenAPI document or a Postman collection, as 'serve' "
            + "serves them.",
        arguments: [stubs, format, openapi, basePath] + PostmanInput.arguments,
        exitCodes: "0 listed, 2 the folder, document or collection cannot be read, 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "variants", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let format = arguments[Self.format]
        let openapi = arguments[Self.openapi]
        if openapi != nil && arguments.isPresent(Self.stubs) {
            throw ArgumentError.invalidCombination("'--stubs' and '--openapi' list different things; give one")
        }
        if let path = arguments[Self.basePath], openapi == nil {
            throw ArgumentError.invalidValue(option: "--base-path", value: path, expected: "--openapi FILE beside it")
        }
        try PostmanInput.checkArguments(arguments)
        var contract: Contract?
        if let openapi {
            guard let read = OpenAPIDocument.read(openapi) else { return .couldNotRun }
            contract = read
        }
        guard
            let sources = try StubSources.read(
                arguments, stubs: Self.stubs, document: contract == nil ? nil : openapi)
        else {
            return .couldNotRun
        }
        var mappings: [StubMapping] = []
        if let directory = sources.directory {
            let report: StubLoadReport
            do {
                report = try StubLoader(root: directory).load()
            } catch {
                writeError("petmock: error: \(error)")
                return .couldNotRun
            }
            for problem in report.problems where problem.isError { writeError(problem.description) }
            mappings = report.mappings
        }
        mappings += sources.mappings
        guard let contract else {
            let catalog = VariantCatalog(mappings: mappings)
            // Names, descriptions and URLs come from the files: escaped for a terminal.
            writeOutput(
                format == .json ? catalog.json.serialized(.pretty) : TerminalText.escapeEachLine(catalog.description))
            return .success
        }
        let responder = OpenAPIResponder(contract: contract, basePath: arguments[Self.basePath])
        let document = DocumentStubSet(responder: responder).variantCatalogSources()
        let catalog = VariantCatalog(mappings: mappings + document.mappings, operations: document.operations)
        // The collections' roles only: no store is made, so nothing is seeded.
        let stateful = responder.operations(roles: ResourceModel(contract: contract)).filter { $0.stateful != nil }
        writeOutput(format == .json ? json(catalog, stateful) : text(catalog, stateful))
        return .success
    }

    /// The catalog, then the operations `serve --stateful` keeps state for.
    private static func text(_ catalog: VariantCatalog, _ stateful: [DocumentOperation]) -> String {
        let listing = TerminalText.escapeEachLine(catalog.description)
        guard !stateful.isEmpty else { return listing + "\n\nNo operation is stateful with --stateful." }
        let width = stateful.map(\.name.count).max() ?? 0
        let lines = stateful.map { operation in
            let role = operation.stateful.map { "\($0.role) \($0.collection)" } ?? ""
            return "  " + operation.name + String(repeating: " ", count: width - operation.name.count + 2) + role
        }
        // Operation names and collection paths come from the document: escaped for a terminal.
        return listing + "\n\nStateful with --stateful:\n"
            + TerminalText.escapeEachLine(lines.joined(separator: "\n"))
    }

    private static func json(_ catalog: VariantCatalog, _ stateful: [DocumentOperation]) -> String {
        guard case .object(var object) = catalog.json else { return catalog.json.serialized(.pretty) }
        object["stateful"] = .array(
            stateful.compactMap { operation in
                operation.stateful.map { entry in
                    [
                        "operation": .string(operation.name), "role": .string(entry.role),
                        "collection": .string(entry.collection),
                    ]
                }
            })
        return JSONValue.object(object).serialized(.pretty)
    }
}
