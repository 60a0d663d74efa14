import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import TLSKit
import TestSupport
import Testing

/// HTTPS through a real petmock process and curl, and TLS clients that misbehave: the server
/// closes them and keeps answering others.
@Suite struct HTTPSTests {
    static let curl = "/usr/bin/curl"
    static var hasCurl: Bool { FileManager.default.isExecutableFile(atPath: curl) }

    /// `curl --cacert CA URL`: the body, or nil when curl failed.
    static func fetch(_ url: String, trusting ca: String) async throws -> ToolResult {
        try await ToolProcess.run(
            executable: curl, ["-sS", "--max-time", "20", "--cacert", ca, url], timeout: 30)
    }

    @Test(.enabled(if: hasCurl)) func petmockServesBothPortsAndCurlTrustsTheLocalCA() async throws {
        let folder = try TemporaryDirectory(
            prefix: "petkit-https",
            files: [
                "stubs/mappings/hello.json":
                    #"{"request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "body": "hi"}}"#
            ])
        defer { folder.remove() }
        let ca = folder.file("ca")
        let server = try await ServerProcess(
            "petmock", ["serve", "--stubs", folder.file("stubs"), "--port", "0", "--https-port", "0", "--ca-dir", ca])
        defer { server.terminate() }
        let line = try #require(server.errorOutput.split(separator: "\n").first { $0.contains("https://") })
        let https = try #require(line.split(separator: " ").first { $0.hasPrefix("https://localhost:") })
        #expect(line.contains("(CA \(ca)/ca.pem)"))

        let secure = try await Self.fetch("\(https)/hello", trusting: ca + "/ca.pem")
        #expect(secure.status == 0, "\(secure.stderr)")
        #expect(secure.stdout == "hi")
        let plain = try await ToolProcess.run(executable: Self.curl, ["-sS", "\(server.url)/hello"], timeout: 30)
        #expect(plain.stdout == "hi")

        // Without the CA, curl refuses the certificate: it is the CA that makes it trusted.
        let untrusted = try await ToolProcess.run(executable: Self.curl, ["-sS", "\(https)/hello"], timeout: 30)
        #expect(untrusted.status == 60, "\(untrusted.stderr)")
    }

    /// A request that came over TLS is `https` in templates and in the journal; one on the
    /// plain port beside it stays `http`.
    @Test(.enabled(if: hasCurl)) func anHTTPSRequestIsJournaledAndTemplatedAsHTTPS() async throws {
        let folder = try TemporaryDirectory(
            prefix: "petkit-https",
            files: [
                "stubs/mappings/where.json":
                    #"{"request": {"urlPath": "/where"}, "response": {"body": "{{request.baseUrl}} {{request.scheme}}", "transformers": ["response-template"]}}"#
            ])
        defer { folder.remove() }
        let ca = folder.file("ca")
        let server = try await ServerProcess(
            "petmock", ["serve", "--stubs", folder.file("stubs"), "--port", "0", "--https-port", "0", "--ca-dir", ca])
        defer { server.terminate() }
        let line = try #require(server.errorOutput.split(separator: "\n").first { $0.contains("https://") })
        let https = try #require(line.split(separator: " ").first { $0.hasPrefix("https://localhost:") })
        let secure = try await Self.fetch("\(https)/where?on=tls", trusting: ca + "/ca.pem")
        #expect(secure.stdout == "\(https) https", "\(secure.stderr)")
        let plain = try await ToolProcess.run(executable: Self.curl, ["-sS", "\(server.url)/where"], timeout: 30)
        #expect(plain.stdout == "\(server.url) http")
        let journal = try await ToolProcess.run(
            executable: Self.curl, ["-sS", "\(server.url)/__admin/requests"], timeout: 30)
        let requests = try JSONValue(parsing: Array(journal.stdout.utf8))["requests"]?.arrayValue ?? []
        let logged = requests.compactMap { $0["request"] }
        #expect(
            logged.map { $0["absoluteUrl"]?.stringValue ?? "" }.sorted()
                == ["\(https)/where?on=tls", "\(server.url)/where"].sorted(),
            "\(journal.stdout)")
        #expect(logged.map { $0["scheme"]?.stringValue ?? "" }.sorted() == ["http", "https"])
    }

    @Test func petmockCertPrintsThePathAndTheSimulatorLine() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-cert")
        defer { folder.remove() }
        let result = try await ToolProcess.run("petmock", ["cert", "--ca-dir", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first.map(String.init) == folder.path + "/ca.pem")
        #expect(result.stdout.contains("xcrun simctl keychain booted add-root-cert '\(folder.path)/ca.pem'"))
        #expect(try CertificateSummary(pemFile: folder.path + "/ca.pem").isAuthority)
    }

    @Test func petmockServeWithACorruptCAFolderSaysWhichFile() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-cert", files: ["ca.pem": "garbage", "ca-key.pem": "x"])
        defer { folder.remove() }
        let result = try await ToolProcess.run(
            "petmock", ["serve", "--stubs", "Stubs", "--https-port", "0", "--ca-dir", folder.path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("'\(folder.path)': 'ca.pem': expected a PEM certificate, found none"),
            "\(result.stderr)")
    }

    /// An in-process HTTPS server with a one-second header timeout.
    static func server(_ folder: TemporaryDirectory) throws -> LiveHTTPServer {
        var configuration = HTTPServerConfiguration(port: 0, eventLoopCount: 1, headerTimeout: .seconds(1))
        configuration.tls = try LocalCertificateAuthority(directory: folder.path).serverTLS()
        return try LiveHTTPServer(
            configuration: configuration, handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "ok")) })
    }

    @Test(.enabled(if: hasCurl)) func garbageInsteadOfAClientHelloIsClosedAndOthersAreServed() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-tls-garbage")
        defer { folder.remove() }
        let server = try Self.server(folder)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n" + String(repeating: "x", count: 4096))
        // An alert at most, never an HTTP answer; then the end.
        let ending = try client.ending()
        #expect(!String(decoding: ending.bytes, as: UTF8.self).contains("HTTP/1.1"))
        let fetched = try await Self.fetch("https://localhost:\(server.port)/", trusting: folder.file("ca.pem"))
        #expect(fetched.stdout == "ok", "\(fetched.stderr)")
    }

    /// At its connection limit, an HTTPS server refuses a client with a reset and not a byte
    /// of plain HTTP (a TLS client would read a plaintext 503 as a broken handshake).
    @Test func atTheConnectionLimitAnHTTPSClientIsResetNotAnswered503() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-tls-limit")
        defer { folder.remove() }
        // A head that moved lately is never closed to make room (the stalled-request age).
        var configuration = HTTPServerConfiguration(
            port: 0, eventLoopCount: 1, headerTimeout: .seconds(60), maxConnections: 1,
            stalledRequestAge: .seconds(600))
        configuration.tls = try LocalCertificateAuthority(directory: folder.path).serverTLS()
        let server = try LiveHTTPServer(
            configuration: configuration, handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "ok")) })
        defer { server.stop() }
        // The one place: a handshake under way, the start of a request head.
        let holder = try RawClient(port: server.port, timeout: .seconds(20))
        try holder.send(Self.partialHello)
        let refused = try RawClient(port: server.port, timeout: .seconds(20))
        let ending = try refused.ending()
        #expect(ending == .reset([]), "\(String(decoding: ending.bytes, as: UTF8.self))")
        #expect(!holder.hasPendingInput, "the handshake under way was not closed to make room")
    }

    /// Past the descriptor limit, with no connection it may close, petmock's HTTPS port resets
    /// a waiting client rather than write it a plain 503 (`DescriptorLimitTests` shows the plain
    /// port's 503).
    @Test func pastTheDescriptorLimitAnHTTPSClientIsResetNotAnswered503() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-tls-fdlimit", files: ["stubs/mappings/.keep": ""])
        defer { folder.remove() }
        let server = try await ServerProcess(
            "petmock",
            [
                "serve", "--stubs", folder.file("stubs"), "--port", "0", "--https-port", "0", "--ca-dir",
                folder.file("ca"), "--event-loops", "1",
            ], openFileLimit: 48)
        defer { server.terminate() }
        let line = try #require(server.errorOutput.split(separator: "\n").first { $0.contains("https://") })
        let https = try #require(line.split(separator: " ").first { $0.hasPrefix("https://localhost:") })
        let port = try #require(Int(https.dropFirst("https://localhost:".count)))
        // More handshakes under way than the server has descriptors: none may be closed to make
        // room (each moved lately), so each client past the limit is refused.
        var held: [RawClient] = []
        for _ in 0..<60 {
            let client = try RawClient(port: port, timeout: .seconds(20))
            try? client.send(Self.partialHello)
            held.append(client)
        }
        let late = try RawClient(port: port, timeout: .seconds(20))
        let ending = try late.ending()
        #expect(ending == .reset([]), "\(String(decoding: ending.bytes, as: UTF8.self))")
        for client in held {
            client.shutdownWrite()
            #expect(!String(decoding: (try? client.readToEnd())?.bytes ?? [], as: UTF8.self).contains("HTTP/1.1"))
        }
    }

    /// The first bytes of a ClientHello record, and nothing more.
    static let partialHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]

    @Test(.enabled(if: hasCurl)) func aStalledHandshakeIsClosedAtTheHeaderTimeout() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-tls-stall")
        defer { folder.remove() }
        let server = try Self.server(folder)
        defer { server.stop() }
        let stalled = try RawClient(port: server.port, timeout: .seconds(20))
        try stalled.send(Self.partialHello)
        let fetched = try await Self.fetch("https://localhost:\(server.port)/", trusting: folder.file("ca.pem"))
        #expect(fetched.stdout == "ok", "\(fetched.stderr)")
        // Closed by the server (its header timeout), not left open until the client gives up.
        let ending = try stalled.ending()
        #expect(ending.bytes.count < 64)
    }

    @Test(.enabled(if: hasCurl)) func manySlowHandshakesDoNotStopOtherClients() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-tls-slowloris")
        defer { folder.remove() }
        let server = try Self.server(folder)
        defer { server.stop() }
        var slow: [RawClient] = []
        for _ in 0..<64 {
            let client = try RawClient(port: server.port, timeout: .seconds(20))
            try client.send(Array(Self.partialHello.prefix(3)))
            slow.append(client)
        }
        for client in slow { try client.send(Array(Self.partialHello[3...5])) }
        let fetched = try await Self.fetch("https://localhost:\(server.port)/", trusting: folder.file("ca.pem"))
        #expect(fetched.stdout == "ok", "\(fetched.stderr)")
        for client in slow {
            guard case .closed = try client.ending() else {
                Issue.record("a slow handshake was reset or left open")
                continue
            }
        }
    }
}
