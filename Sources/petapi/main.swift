import ArgumentKit
import HTTPHandlerKit
import HTTPServerKit
import PetAPIServer
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Serve {
    static let db = Argument<String>.option(
        "db", value: "PATH", default: "petapi.sqlite", help: "The SQLite file; created and seeded if new.")
    static let seed = Argument<String?>.option(
        "seed", value: "FILE", help: "JSON seed for a new database (default: the built-in pets and vets).")
    static let host = Argument<String>.option(
        "host", value: "HOST", default: "127.0.0.1", help: "The address to listen on.")
    static let port = Argument<Int>.number(
        "port", short: "p", value: "PORT", default: 8081, in: 0...65535, help: "The port; 0 picks a free one.")
    static let eventLoops = Argument<Int?>.number(
        "event-loops", in: 1...256, help: "Event loop threads (default: one per core).")

    static let spec = CommandSpec(
        name: "petapi serve", abstract: "Serve the reference Pet API from a SQLite database.",
        arguments: [db, seed, host, port, eventLoops],
        discussion: "Prints 'petapi listening on http://HOST:PORT/api' once it accepts connections.",
        exitCodes: "0 stopped, 2 could not start (bad seed, cannot listen), 64 usage error")
}

let tool = CommandLineTool(
    name: "petapi", abstract: "The reference live Pet API, backed by SQLite.",
    subcommands: [
        .init(verb: "serve", spec: Serve.spec) { arguments in
            let seed: PetAPISeed
            if let file = arguments[Serve.seed] {
                guard let bytes = readFile(file) else {
                    writeError("petapi: error: cannot read seed file '\(file)'")
                    return .couldNotRun
                }
                do {
                    seed = try PetAPISeed(json: bytes)
                } catch {
                    writeError("petapi: error: \(file): \(error)")
                    return .couldNotRun
                }
            } else {
                seed = .standard
            }
            let path = arguments[Serve.db]
            let configuration = HTTPServerConfiguration(
                host: arguments[Serve.host], port: arguments[Serve.port], eventLoopCount: arguments[Serve.eventLoops])
            // Listen first, then open (and maybe create and seed) the database, then accept: a
            // busy port leaves no database file behind, and a client that connects while the
            // database opens waits in the listen backlog for a ready server.
            let handler = StoreHandler()
            let server = HTTPServer(configuration: configuration, handler: handler)
            server.shutdownOnSignals()
            do {
                try server.start(beforeAccepting: {
                    handler.open(PetAPIHandler(store: try PetStore(path: path, seed: seed)))
                })
            } catch let error as HTTPServerError {
                let advice = error.addressInUseAdvice().map { "; \($0)" } ?? ""
                writeError("petapi: error: \(error)\(advice)")
                return .couldNotRun
            }
            writeOutput("petapi listening on http://\(configuration.host):\(server.port)/api (database \(path))")
            await server.stopped()
            return .success
        }
    ])

/// The API's handler, given once its database is open. The server accepts connections only
/// after that (`start(beforeAccepting:)`), so the 503 is for a misuse, never seen by a client.
final class StoreHandler: HTTPHandler {
    private let handler = Locked<PetAPIHandler?>(nil)

    func open(_ handler: PetAPIHandler) {
        self.handler.withLock { $0 = handler }
    }

    func reply(to request: HTTPServerRequest) -> HTTPReply {
        guard let handler = handler.withLock({ $0 }) else {
            return .response(HTTPResponse(status: .serviceUnavailable, text: "petapi: starting"))
        }
        return handler.reply(to: request)
    }
}

/// The whole file, or nil when it cannot be read.
func readFile(_ path: String) -> [UInt8]? {
    try? FileSystem.read(path)
}

await tool.main()
