import APISchema
import ArgumentKit
import ContractKit
import Foundation
import HTTPCore
import HTTPServerKit
import MockEngine
import OpenAPIMock
import StubServerKit
import TLSKit

/// `petmock serve`: load the stubs, report their problems, serve until SIGINT/SIGTERM or
/// `POST /__admin/shutdown`.
enum ServeCommand {
    static let stubs = Argument<String>.option(
        "stubs", value: "DIR", default: "Stubs", help: "The stub folder (mappings/, __files/).")
    static let host = Argument<String>.option(
        "host", value: "HOST", default: "127.0.0.1", help: "The address to listen on.")
    static let port = Argument<Int>.number(
        "port", short: "p", value: "PORT", default: 8080, in: 0...65535, help: "The port; 0 picks a free one.")
    static let httpsPort = Argument<Int?>.number(
        "https-port", value: "PORT", in: 0...65535,
        help: "Also serve HTTPS on this port (0 picks a free one), with a certificate for localhost, 127.0.0.1 "
            + "and ::1 from the local CA in --ca-dir; alone (no --port), HTTPS only.")
    static let caDirectory = Argument<String?>.option(
        "ca-dir", value: "DIR",
        help: "The local certificate authority's folder, made on first use (default: ~/.petmock/ca).")
    static let variant = Argument<String?>.option(
        "variant", value: "NAME", help: "A variant active for every request (file or generated).")
    static let watch = Argument<Bool>.flag(
        "watch", help: "Reload mapping files when they change, and the --postman collection and its environment.")
    static let strict = Argument<Bool>.flag(
        "strict", help: "Refuse to start if any stub file has a problem, warnings included.")
    static let adminToken = Argument<String?>.option(
        "admin-token", value: "TOKEN",
        help: "Require 'Authorization: Bearer TOKEN' on /__admin (any client); default: $PETMOCK_ADMIN_TOKEN when set.")
    static let journalSize = Argument<Int>.number(
        "journal-size", default: 10_000, in: 0...10_000_000, help: "How many requests the journal keeps.")
    static let eventLoops = Argument<Int?>.number(
        "event-loops", in: 1...256, help: "Event loop threads (default: one per core).")
    static let globalResponseTemplating = Argument<Bool>.flag(
        "global-response-templating",
        help: "Render every stub's response as a Handlebars template, not only those with "
            + "\"transformers\": [\"response-template\"].")
    static let proxyUnmatched = Argument<String?>.option(
        "proxy-unmatched", value: "BASE_URL",
        help: "Forward requests no stub matches to the live API (journaled as proxied).")
    static let openapi = Argument<String?>.option(
        "openapi", value: "FILE",
        help: "Also answer from an OpenAPI document (JSON or YAML): examples, else bodies generated from "
            + "its schemas; stubs come first.")
    static let basePath = Argument<String?>.option(
        "base-path", value: "PATH",
        help: "Where the document's paths are mounted (default: the path of its first servers URL, else /).")
    static let validateRequests = Argument<Toggle>.choice(
        "validate-requests", value: "on|off", default: .on,
        help: "Check requests that reach the document's operations against their parameters and body; "
            + "refuse invalid ones with a problem+json 400, 415 or 422 (needs --openapi).")
    static let security = Argument<Toggle>.choice(
        "security", value: "on|off", default: .on,
        help: "Refuse requests without the credentials their operation's security requirements ask for "
            + "(present and well formed, not checked against any value) with a 401 and WWW-Authenticate, "
            + "before validating them (needs --openapi).")
    static let dynamic = Argument<Bool>.flag(
        "dynamic",
        help: "Generate every answer of the document from its schema per request rather than sending its "
            + "examples (Prism's --dynamic), each from the next seed of a counter, named in Petmock-Seed; "
            + "'Prefer: dynamic=false' asks for the example (needs --openapi).")
    static let errors = Argument<Bool>.flag(
        "errors",
        help: "Answer a problem instead of an answer that breaks its response schema: a 500 for an example, a "
            + "502 for the live API's answer with --proxy-unmatched; without it such an answer is sent with a "
            + "Petmock-Violations field (needs --openapi).")
    static let stateful = Argument<Bool>.flag(
        "stateful",
        help: "Keep what clients send: the document's collections (/things beside /things/{id}) are "
            + "created, listed, read, replaced, patched and deleted in memory, starting from its examples "
            + "(needs --openapi).")
    static let stateFile = Argument<String?>.option(
        "state-file", value: "FILE",
        help: "Keep --stateful's collections in this SQLite file as well: loaded from it at start (the "
            + "document's examples seed a new file only), each write committed before it is answered "
            + "(needs --stateful).")
    static let cors = Argument<Toggle?>.choice(
        "cors", value: "on|off",
        help: "Answer browsers' CORS preflights no stub maps and add Access-Control-Allow-Origin and "
            + "-Expose-Headers to answers to cross-origin requests (default: on with --openapi, else off).")

    static let spec = CommandSpec(
        name: "petmock serve",
        abstract: "Serve a WireMock stub folder, an OpenAPI document or a Postman collection, their variants and "
            + "the admin API.",
        arguments: [
            stubs, host, port, httpsPort, caDirectory, variant, watch, strict, adminToken, journalSize, eventLoops,
            proxyUnmatched, globalResponseTemplating, openapi, basePath, validateRequests, security, dynamic, errors,
            stateful, stateFile,
            cors,
        ] + PostmanInput.arguments,
        discussion: """
            EXAMPLES:
              petmock serve --stubs Stubs --port 8080 --watch
              petmock serve --variant missing:name
              petmock serve --openapi items.yaml
              petmock serve --openapi items.yaml --dynamic
              petmock serve --openapi items.yaml --proxy-unmatched https://api.example.com --errors
              petmock serve --openapi items.yaml --stateful
              petmock serve --openapi items.yaml --stateful --state-file items.sqlite
              petmock serve --port 8080 --https-port 8443
              petmock serve --postman pets.postman_collection.json --postman-environment local.json
              curl -H 'X-Petmock-Variant: missing:name' http://127.0.0.1:8080/api/items
            """,
        exitCodes: "0 stopped cleanly, 1 --strict found problems, 2 could not start, 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "serve", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        // The document's load-time generation check runs beside the start: a start that fails
        // waits for it, so that no work is left running as the process exits.
        var generationCheck: Task<[GenerationProblem], Never>?
        do {
            let code = try await serve(arguments, generationCheck: &generationCheck)
            _ = await generationCheck?.value
            return code
        } catch {
            _ = await generationCheck?.value
            throw error
        }
    }

    /// ``run(_:)``, the generation check it starts kept in `generationCheck`.
    private static func serve(
        _ arguments: ParsedArguments, generationCheck: inout Task<[GenerationProblem], Never>?
    ) async throws -> ExitCode {
        var configuration = StubServerConfiguration(
            host: arguments[Self.host], port: arguments[Self.port], eventLoopCount: arguments[Self.eventLoops],
            variant: arguments[Self.variant], journalCapacity: arguments[Self.journalSize],
            strict: arguments[Self.strict], watch: arguments[Self.watch],
            proxyUnmatched: arguments[Self.proxyUnmatched],
            globalResponseTemplating: arguments[Self.globalResponseTemplating])
        configuration.httpsPort = arguments[Self.httpsPort]
        configuration.servesPlainHTTP = arguments.isPresent(Self.port) || configuration.httpsPort == nil
        if let directory = arguments[Self.caDirectory] {
            guard configuration.httpsPort != nil else {
                throw ArgumentError.invalidValue(
                    option: "--ca-dir", value: directory, expected: "--https-port PORT beside it")
            }
            configuration.certificateAuthority = LocalCertificateAuthority(directory: directory)
        }
        let fromEnvironment = ProcessInfo.processInfo.environment["PETMOCK_ADMIN_TOKEN"].flatMap {
            $0.isEmpty ? nil : $0
        }
        if let token = arguments[Self.adminToken] ?? fromEnvironment {
            guard !token.isEmpty else {
                throw ArgumentError.invalidValue(option: "--admin-token", value: token, expected: "a non-empty token")
            }
            configuration.adminAccess = .token(token)
        }
        if let name = configuration.variant {
            // A malformed name (an invalid JSONPath among them) is a usage error; whether the
            // stubs have the variant or its field is for the server to say.
            do {
                _ = try Variant(name)
            } catch {
                throw ArgumentError.invalidValue(
                    option: "--variant", value: name, expected: "a file or generated variant (\(error.reason))")
            }
        }
        if arguments[Self.basePath] != nil && arguments[Self.openapi] == nil {
            throw ArgumentError.invalidValue(
                option: "--base-path", value: arguments[Self.basePath] ?? "", expected: "--openapi FILE beside it")
        }
        if arguments.isPresent(Self.validateRequests) && arguments[Self.openapi] == nil {
            throw ArgumentError.invalidValue(
                option: "--validate-requests", value: arguments[Self.validateRequests].rawValue,
                expected: "--openapi FILE beside it")
        }
        if arguments.isPresent(Self.security) && arguments[Self.openapi] == nil {
            throw ArgumentError.invalidValue(
                option: "--security", value: arguments[Self.security].rawValue, expected: "--openapi FILE beside it")
        }
        for flag in [Self.dynamic, Self.errors] where arguments[flag] && arguments[Self.openapi] == nil {
            throw ArgumentError.invalidCombination("\(flag.flagName) needs --openapi FILE beside it")
        }
        if arguments[Self.stateful] && arguments[Self.proxyUnmatched] != nil && arguments[Self.openapi] != nil {
            throw ArgumentError.invalidCombination(
                "--stateful with --proxy-unmatched: with --openapi the live API answers the document's operations, "
                    + "so there is no state to keep")
        }
        if arguments[Self.stateful] && arguments[Self.openapi] == nil {
            throw ArgumentError.invalidCombination(
                "--stateful needs --openapi FILE beside it: only a document has collections")
        }
        if let stateFile = arguments[Self.stateFile], !arguments[Self.stateful] {
            throw ArgumentError.invalidValue(option: "--state-file", value: stateFile, expected: "--stateful beside it")
        }
        try PostmanInput.checkArguments(arguments)
        var responder: OpenAPIResponder?
        // The document's warnings that wait for the load-time generation of every response:
        // that check runs beside the server's start (a large document's takes seconds), and
        // its lines, then these, are written before the readiness line.
        var laterWarnings: [String] = []
        if let file = arguments[Self.openapi] {
            guard let contract = OpenAPIDocument.read(file) else { return .couldNotRun }
            generationCheck = Task.detached { GenerationCheck.problems(in: contract) }
            if let stateFile = arguments[Self.stateFile] {
                do {
                    responder = try OpenAPIResponder(
                        contract: contract, basePath: arguments[Self.basePath],
                        validatesRequests: arguments[Self.validateRequests] == .on,
                        enforcesSecurity: arguments[Self.security] == .on, stateFile: stateFile,
                        dynamic: arguments[Self.dynamic], strictResponses: arguments[Self.errors],
                        log: { writeError($0) })
                } catch {
                    // The message quotes the file's name and its content: escaped for a terminal.
                    writeError("petmock: error: \(TerminalText.escape(error.description))")
                    return .couldNotRun
                }
            } else {
                responder = OpenAPIResponder(
                    contract: contract, basePath: arguments[Self.basePath],
                    validatesRequests: arguments[Self.validateRequests] == .on,
                    enforcesSecurity: arguments[Self.security] == .on, stateful: arguments[Self.stateful],
                    dynamic: arguments[Self.dynamic], strictResponses: arguments[Self.errors],
                    log: { writeError($0) })
            }
            // The lines quote the document (keys, examples): escaped for a terminal.
            for problem in responder?.seedProblems ?? [] {
                writeError("petmock: warning: stateful seed: \(TerminalText.escape(problem))")
            }
            for keyword in contract.ignoredKeywords {
                writeError("petmock: warning: \(TerminalText.escapeEachLine(keyword))")
            }
            // Sent all the same, with Petmock-Violations (a 500 with --errors).
            for problem in responder?.exampleProblems ?? [] {
                let outcome = arguments[Self.errors] ? "answered with a 500" : "sent with Petmock-Violations"
                laterWarnings.append("petmock: warning: \(TerminalText.escape(problem)) (\(outcome))")
            }
            for problem in responder?.callbackProblems ?? [] {
                laterWarnings.append("petmock: warning: \(TerminalText.escape(problem))")
            }
            if arguments[Self.security] == .on {
                for problem in SecurityCheck.problems(in: contract) {
                    laterWarnings.append("petmock: warning: \(TerminalText.escape(problem.description))")
                }
            }
            configuration.fallback = responder
        }
        // On by default for a document, as in Prism; off for stub folders alone, as in WireMock.
        configuration.cors = arguments[Self.cors].map { $0 == .on } ?? (responder != nil)
        guard
            let sources = try StubSources.read(
                arguments, stubs: Self.stubs, document: responder == nil ? nil : arguments[Self.openapi])
        else {
            return .couldNotRun
        }
        if let postman = sources.postman, configuration.strict, sources.postmanStubs?.problems.isEmpty == false {
            writeError("petmock: error: --strict: \(TerminalText.escape(postman.file)) has problems (above)")
            return .failure
        }
        let stubs = sources.directory
        let server: StubServer
        do {
            server = try StubServer(
                stubsDirectory: stubs, mappings: sources.mappings, configuration: configuration)
        } catch {
            writeError("petmock: error: \(error)")
            if case .setup(.load(.invalidStubs)) = error { return .failure }
            return .couldNotRun
        }
        for problem in server.loadProblems { writeError(problem.description) }
        if configuration.watch, let postman = sources.postman {
            server.watchMappings(postman.watched)
        }
        let host = configuration.host
        if configuration.adminAccess == .loopbackOnly && !isLoopback(host) {
            writeError(
                "petmock: warning: listening on \(host) without --admin-token: the stubs are reachable from other "
                    + "machines; the admin API answers this machine only (pass --admin-token TOKEN to use it remotely)")
        }
        // Listen for events before the first request can arrive, so none is missed.
        let events = server.events()
        do {
            try server.start()
        } catch {
            writeError(startFailureLine(error))
            return .couldNotRun
        }
        server.shutdownOnSignals()
        // Responses no valid body can be made for are answered with a 500 that says why.
        for problem in await generationCheck?.value ?? [] {
            writeError("petmock: warning: \(TerminalText.escape(problem.description)) (answered with a 500)")
        }
        for warning in laterWarnings { writeError(warning) }
        let count = server.admin.mappings().count
        var from = stubs.map { [$0] } ?? []
        if let postman = sources.postman, let set = sources.postmanStubs {
            from.append(
                "\(TerminalText.escape(postman.file)) (\(set.mappings.count) from \(set.requestCount) requests)")
        }
        var line =
            "petmock: serving \(count) mapping\(count == 1 ? "" : "s") from "
            + (from.isEmpty ? "no stub folder" : from.joined(separator: " and "))
        if let responder {
            let operations = responder.operationCount
            line +=
                " and \(operations) operation\(operations == 1 ? "" : "s") from \(arguments[Self.openapi] ?? "")"
                + " at \(responder.basePath.isEmpty ? "/" : responder.basePath)"
        }
        if configuration.servesPlainHTTP { line += " on \(server.baseURL)" }
        if let url = server.httpsBaseURL {
            line += configuration.servesPlainHTTP ? " and \(url)" : " on \(url)"
            line += " (CA \(TerminalText.escape(configuration.certificateAuthority.certificatePath)))"
        }
        if let variant = configuration.variant { line += " (variant \(variant))" }
        if configuration.watch { line += ", watching for changes" }
        if let target = configuration.proxyUnmatched { line += ", unmatched requests proxied to \(target)" }
        // Log lines, the readiness line among them, are diagnostics: standard error.
        writeError(line)
        let logger = Task {
            for await event in events { writeError("petmock: \(event)") }
        }
        await server.stopped()
        logger.cancel()
        writeError("petmock: stopped")
        return .success
    }

    /// Whether a listening address only takes connections from this machine.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
