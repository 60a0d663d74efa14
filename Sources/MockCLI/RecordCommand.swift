import ArgumentKit
import ContractKit
import HTTPCore
import MockEngine
import Platform
import StubServerKit

/// `petmock record`: a recording proxy in front of the live API (or, with `--crawl`, a walk of
/// the contract's operations), writing WireMock mappings into the stub folder as it goes,
/// then checking what it wrote against the contract.
enum RecordCommand {
    static let target = Argument<String>.required(
        "target", value: "URL",
        help: "The live API's base URL, path prefix included (http://127.0.0.1:8081/api), as 'petcontract verify "
            + "--live' takes it.")
    static let stubs = Argument<String>.option(
        "stubs", value: "DIR", default: "Stubs", help: "The stub folder to record into.")
    static let host = Argument<String>.option(
        "host", value: "HOST", default: "127.0.0.1", help: "The address the proxy listens on.")
    static let port = Argument<Int>.number(
        "port", short: "p", value: "PORT", default: 8080, in: 0...65535, help: "The proxy's port; 0 picks a free one.")
    static let redact = Argument<[String]>.repeated(
        "redact", value: "HEADER", help: "Never write this header (besides Authorization, Cookie, Set-Cookie).")
    static let captureHeader = Argument<[String]>.repeated(
        "capture-header", value: "HEADER", help: "Match recorded requests on this header too.")
    static let scenarios = Argument<Bool>.flag(
        "scenarios", help: "Record a repeated request's answers as a scenario sequence.")
    static let recordFailures = Argument<Bool>.flag(
        "record-failures", help: "Also record upstream timeouts, resets and garbage (as passed on).")
    static let timeout = Argument<Int>.number(
        "timeout", value: "SECONDS", default: 30, in: 1...3_600, help: "The time allowed for each upstream request.")
    static let crawl = Argument<Bool>.flag(
        "crawl", help: "No proxy: call the contract's operations, following ids found in responses.")
    static let contract = Argument<String?>.option(
        "contract", value: "FILE", help: "The OpenAPI contract to crawl and check against (default: built in).")
    static let maxPerOperation = Argument<Int>.number(
        "max-per-operation", default: 20, in: 1...10_000, help: "With --crawl: the most calls per operation.")
    static let header = Argument.repeated(
        "header", short: "H", value: "'NAME: VALUE'",
        help: "With --crawl: send this header with every request (never written to the stubs).",
        parsedBy: HTTPHeaders.Field.init(line:))
    static let noVerify = Argument<Bool>.flag(
        "no-verify", help: "Do not check the recorded stubs against the contract afterwards.")

    static let spec = CommandSpec(
        name: "petmock record", abstract: "Record stubs from the live API: a proxy, or a crawl of the contract.",
        arguments: [
            target, stubs, host, port, redact, captureHeader, scenarios, recordFailures, timeout, crawl, contract,
            maxPerOperation, header, noVerify,
        ],
        discussion: """
            EXAMPLES:
              petmock record --target http://127.0.0.1:8081/api --stubs Recorded --port 8080
                (point the app at http://127.0.0.1:8080/api, use it, then Ctrl-C)
              petmock record --crawl --target http://127.0.0.1:8081/api --stubs Recorded

            --target is the API's BASE URL, path prefix included, in both modes (as 'petcontract
            verify --live' takes it). Mappings match the paths as the live server has them
            (/api/pets). The proxy keeps each path as it comes: a client of
            http://127.0.0.1:8080/api asks for /api/pets, sent to TARGET's origin + /api/pets. A
            request outside the prefix is answered 404 and neither forwarded nor recorded. A 404
            to a path that repeats the prefix (/api/api/pets) is not recorded: the recording stops
            and exits 2 saying so. 404s are held back, unwritten, until the API answers some
            request otherwise; when it never does (a wrong base URL), nothing is recorded and the
            exit code is 2. Mappings are written as they are recorded; Ctrl-C stops and keeps
            everything.
            """,
        exitCodes: "0 recorded, 1 the recorded stubs show breaking drift from the contract, 2 could not record "
            + "(cannot listen, unreachable, nothing but 404, a repeated path prefix, cannot write), 64 usage error")

    /// The subcommand; `contract` is what a crawl walks and what the recording is checked
    /// against when no `--contract` is given (nil: `--contract` is needed for either).
    static func subcommand(contract: ConsumerContract?) -> CommandLineTool.Subcommand {
        CommandLineTool.Subcommand(verb: "record", spec: spec) { arguments in
            try await run(arguments, contract: contract)
        }
    }

    static func run(_ arguments: ParsedArguments, contract builtIn: ConsumerContract?) async throws -> ExitCode {
        let target = arguments[Self.target]
        do {
            try RecordingConfiguration.validateTarget(target)
        } catch {
            throw ArgumentError.invalidValue(option: "--target", value: target, expected: "an http:// or https:// URL")
        }
        let crawls = arguments[Self.crawl]
        if !crawls && (arguments.isPresent(Self.contract) && arguments[Self.noVerify]) {
            throw ArgumentError.invalidCombination(
                "'--contract' serves '--crawl' and the check after recording, which '--no-verify' turns off")
        }
        let headers = HTTPHeaders(arguments[Self.header])
        if !crawls && !headers.isEmpty {
            throw ArgumentError.invalidCombination(
                "'--header' goes with '--crawl'; through the proxy, the app's own request headers are sent")
        }
        var configuration = RecordingConfiguration(
            targetBaseURL: target, repeatsAsScenarios: arguments[Self.scenarios],
            recordFailures: arguments[Self.recordFailures],
            redactedHeaders: arguments[Self.redact] + headers.map(\.name),
            capturedHeaders: arguments[Self.captureHeader].map { CapturedHeader($0) },
            timeout: .seconds(arguments[Self.timeout]), holdsNotFound: true)
        let directory = arguments[Self.stubs]
        let check = RecordingCheck(
            directory: directory, contractFile: arguments[Self.contract], builtIn: builtIn,
            enabled: !arguments[Self.noVerify])
        if crawls {
            return try await Crawl(
                configuration: configuration, directory: directory, check: check,
                maxPerOperation: arguments[Self.maxPerOperation], headers: headers
            ).run()
        }
        configuration.mount(baseURL: target)
        return try await proxy(
            configuration, baseURL: target, directory: directory, host: arguments[Self.host],
            port: arguments[Self.port], check: check)
    }

    /// Serves as a recording proxy until SIGINT/SIGTERM (or the admin API's shutdown).
    private static func proxy(
        _ configuration: RecordingConfiguration, baseURL: String, directory: String, host: String, port: Int,
        check: RecordingCheck
    ) async throws -> ExitCode {
        // The server reads the stub folder, so it must exist; one made here is removed again
        // when the recording fails to start or records nothing (mappings/ and __files/ are
        // made at the first write).
        let madeFolder = FileSystem.kind(of: directory) == nil
        defer { if madeFolder { FileSystem.removeEmptyDirectory(directory) } }
        let server: StubServer
        let events: AsyncStream<StubServerEvent>
        do {
            try FileSystem.createDirectory(directory)
            server = try StubServer(
                stubsDirectory: directory, configuration: StubServerConfiguration(host: host, port: port))
            try server.admin.startRecording(configuration)
            // Listen for events before the first request can arrive, so none is missed.
            events = server.events()
            try server.start()
        } catch {
            writeError(startFailureLine(error))
            return .couldNotRun
        }
        server.shutdownOnSignals()
        writeError(
            "petmock: recording on \(server.baseURL)\(configuration.basePath ?? "") from \(baseURL) into "
                + "\(directory); Ctrl-C stops")
        let logger = Task {
            for await event in events {
                writeError(TerminalText.escape("petmock: \(event)"))
                // An answer that shows the base URL is wrong ends the recording at once.
                if case .recording(.prefixRepeated) = event { server.shutdown() }
            }
        }
        await server.stopped()
        await server.admin.proxiedRequestsFinished()
        logger.cancel()
        guard server.admin.recordingStatus == .recording else {
            writeError("petmock: stopped (the recording was stopped through the admin API)")
            return .success
        }
        let result = try server.admin.stopRecording()
        if let request = result.repeatedPrefix.first {
            writeError(
                TerminalText.escape(
                    "petmock: error: stopped: \(request) answered 404 and repeats the base path "
                        + "'\(configuration.basePath ?? "")' of \(baseURL); point the client at "
                        + "\(server.baseURL)\(configuration.basePath ?? "") (the proxy keeps each path as it comes). "
                        + "\(result.mappings.count) mapping(s) recorded before it are kept"))
            return .couldNotRun
        }
        if !result.heldNotFound.isEmpty && result.mappings.isEmpty {
            writeError(
                await Crawl.nothingFound(
                    result.heldNotFound, target: baseURL, headers: HTTPHeaders(),
                    transport: Crawl.transport(configuration), mode: "the proxy"))
            return .couldNotRun
        }
        return check.report(result)
    }
}
