import ArgumentKit
import Foundation
import StubServer

/// `petmock serve`: load the stubs, report their problems, serve until SIGINT/SIGTERM or
/// `POST /__admin/shutdown`.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "petmock serve", abstract: "Serve a WireMock stub folder, its variants and the admin API.",
        arguments: [
            .option("stubs", value: "DIR", default: "Stubs", help: "The stub folder (mappings/, __files/)."),
            .option("host", value: "HOST", default: "127.0.0.1", help: "The address to listen on."),
            .option("port", short: "p", value: "PORT", default: "8080", help: "The port; 0 picks a free one."),
            .option("variant", value: "NAME", help: "A variant active for every request (file or generated)."),
            .flag("watch", help: "Reload mapping files when they change."),
            .flag("strict", help: "Refuse to start if any stub file has a problem, warnings included."),
            .option(
                "admin-token", value: "TOKEN",
                help: "Require 'Authorization: Bearer TOKEN' on /__admin (any client); default: $PETMOCK_ADMIN_TOKEN "
                    + "when set."),
            .option("journal-size", value: "N", default: "10000", help: "How many requests the journal keeps."),
            .option("event-loops", value: "N", help: "Event loop threads (default: one per core)."),
            .option(
                "proxy-unmatched", value: "BASE_URL",
                help: "Forward requests no stub matches to the live API (journaled as proxied)."),
            .flag(
                "global-response-templating",
                help: "Render every stub's response as a Handlebars template, not only those with "
                    + "\"transformers\": [\"response-template\"]."),
        ],
        discussion: """
            EXAMPLES:
              petmock serve --stubs Stubs --port 8080 --watch
              petmock serve --variant missing:lastName
              curl -H 'X-Petmock-Variant: vet-id-string' http://127.0.0.1:8080/api/pets

            Exit codes: 0 stopped cleanly, 1 --strict found problems, 2 could not start, 64 usage error.
            """)

    static let subcommand = CommandLineTool.Subcommand(verb: "serve", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let directory = arguments.value("stubs") ?? "Stubs"
        var configuration = StubServerConfiguration(
            host: arguments.value("host") ?? "127.0.0.1", port: try arguments.int("port", in: 0...65535) ?? 8080,
            eventLoopCount: try arguments.int("event-loops", in: 1...256), variant: arguments.value("variant"),
            journalCapacity: try arguments.int("journal-size", in: 0...10_000_000) ?? 10_000,
            strict: arguments.flag("strict"), watch: arguments.flag("watch"),
            proxyUnmatched: arguments.value("proxy-unmatched"),
            globalResponseTemplating: arguments.flag("global-response-templating"))
        let fromEnvironment = ProcessInfo.processInfo.environment["PETMOCK_ADMIN_TOKEN"].flatMap {
            $0.isEmpty ? nil : $0
        }
        if let token = arguments.value("admin-token") ?? fromEnvironment {
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
        let server: StubServer
        do {
            server = try StubServer(stubsDirectory: directory, configuration: configuration)
        } catch {
            writeError("petmock: error: \(error)")
            if case .load(.invalidStubs) = error { return .failure }
            return .couldNotRun
        }
        for problem in server.loadProblems { writeError(problem.description) }
        let host = configuration.host
        if configuration.adminAccess == .loopbackOnly && !Self.isLoopback(host) {
            writeError(
                "petmock: warning: listening on \(host) without --admin-token: the stubs are reachable from other "
                    + "machines; the admin API answers this machine only (pass --admin-token TOKEN to use it remotely)")
        }
        do {
            try server.start()
        } catch {
            writeError(startFailureLine(error))
            return .couldNotRun
        }
        server.shutdownOnSignals()
        let count = server.admin.mappings().count
        var line = "petmock: serving \(count) mapping\(count == 1 ? "" : "s") from \(directory) on \(server.baseURL)"
        if let variant = configuration.variant { line += " (variant \(variant))" }
        if configuration.watch { line += ", watching for changes" }
        if let target = configuration.proxyUnmatched { line += ", unmatched requests proxied to \(target)" }
        writeOutput(line)
        let events = server.events()
        let logger = Task {
            for await event in events { writeError("petmock: \(event)") }
        }
        await server.stopped()
        logger.cancel()
        writeOutput("petmock: stopped")
        return .success
    }

    /// Whether a listening address only takes connections from this machine.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
