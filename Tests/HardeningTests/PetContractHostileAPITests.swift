import Foundation
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import TestSupport
import Testing

/// One way a live API can misbehave, for `petcontract verify --live`, and what each endpoint
/// must then report: an error (`kind` in its message) or a finding (`kind` is its id).
struct HostileAPI: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        case error(String)
        case finding(String)
    }

    let name: String
    let outcome: Outcome
    /// The request timeout petcontract gets: short where waiting it out is the point, ample
    /// elsewhere so that a busy machine does not turn a finding into a timeout.
    var timeout = 10
    let behaviour: @Sendable (_ path: String, _ connection: ScriptedConnection) -> Void
    var testDescription: String { name }

    /// 70 MB of spaces, gzip-compressed to about 70 kB: larger than petcontract's 64 MiB
    /// limit once decoded.
    static let gzipBomb: [UInt8] = Gzip.compress([UInt8](repeating: 0x20, count: 70 << 20)) ?? []

    static let jsonHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"

    static let all: [HostileAPI] = [
        HostileAPI(name: "endless body", outcome: .error(""), timeout: 1) { _, connection in
            guard connection.write(jsonHead + "Connection: close\r\n\r\n[") else { return }
            let piece = Array(String(repeating: "1,", count: 32 * 1024).utf8)
            while connection.write(piece) {}
        },
        HostileAPI(name: "huge body", outcome: .error("response too large")) { _, connection in
            let size = 200 << 20
            guard connection.write(jsonHead + "Content-Length: \(size)\r\n\r\n[") else { return }
            let piece = Array(String(repeating: "1,", count: 32 * 1024).utf8)
            var sent = 1
            while sent < size - piece.count, connection.write(piece) { sent += piece.count }
        },
        HostileAPI(name: "slow drip", outcome: .error("timed out"), timeout: 1) { _, connection in
            guard connection.write(jsonHead + "Content-Length: 1000\r\n\r\n") else { return }
            while connection.write("[") { Thread.sleep(forTimeInterval: 0.1) }
        },
        HostileAPI(name: "Content-Length longer than the body", outcome: .error("connection closed early")) {
            _, connection in
            connection.write(jsonHead + "Content-Length: 1000\r\n\r\n[{\"firstName\": \"Rex\"}]")
            connection.hangUp()
        },
        HostileAPI(name: "head cut off", outcome: .error("connection closed early")) { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Ty")
            connection.hangUp()
        },
        HostileAPI(name: "head cut off after a field", outcome: .error("connection closed early")) { _, connection in
            connection.write(jsonHead)
            connection.hangUp()
        },
        HostileAPI(name: "chunked body cut off", outcome: .error("connection closed early")) { _, connection in
            connection.write(jsonHead + "Transfer-Encoding: chunked\r\n\r\n5\r\n[{\"a\"")
            connection.hangUp()
        },
        HostileAPI(name: "Content-Length shorter than the body", outcome: .finding("response-body-truncated")) {
            _, connection in
            connection.write(jsonHead + "Content-Length: 5\r\n\r\n[{\"firstName\": \"Rex\", \"vetId\": 1}]")
        },
        HostileAPI(name: "invalid UTF-8", outcome: .finding("response-body-not-json")) { _, connection in
            let body: [UInt8] = Array(#"[{"firstName": ""#.utf8) + [0xFF, 0xFE, 0xC3] + Array(#"", "vetId": 1}]"#.utf8)
            connection.write(Array((jsonHead + "Content-Length: \(body.count)\r\n\r\n").utf8) + body)
        },
        HostileAPI(name: "deeply nested JSON", outcome: .finding("response-body-not-json")) { _, connection in
            let body = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            connection.write(jsonHead + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
        },
        HostileAPI(name: "garbage instead of HTTP", outcome: .error("malformed response")) { _, connection in
            connection.write("SSH-2.0-OpenSSH_9.2\r\n\r\n\u{0}\u{1}binary")
            connection.hangUp()
        },
        HostileAPI(name: "gzip bomb", outcome: .error("response too large")) { _, connection in
            let head = jsonHead + "Content-Encoding: gzip\r\nContent-Length: \(gzipBomb.count)\r\n\r\n"
            connection.write(Array(head.utf8) + gzipBomb)
        },
    ]
}

/// `petcontract verify --live` against an API that misbehaves: every endpoint ends in a clear
/// error or finding of its own within the time limit, never a hang or a crash.
@Suite struct PetContractHostileAPITests {
    static let operations = ["GET /pets", "GET /vets/{id}"]

    /// Runs `verify --live` against `port`; returns the JSON report.
    static func verify(port: Int, timeout: Int = 10) async throws -> (result: ToolResult, report: JSONValue) {
        let result = try await ToolProcess.run(
            "petcontract",
            ["verify", "--live", "http://127.0.0.1:\(port)/api", "--timeout", "\(timeout)", "--format", "json"],
            timeout: 120)
        let report = (try? JSONValue(parsing: result.stdout)) ?? .null
        return (result, report)
    }

    @Test(arguments: HostileAPI.all)
    func everyEndpointEndsInAClearErrorOrFinding(_ api: HostileAPI) async throws {
        let server = try ScriptedServer(behaviour: api.behaviour)
        defer { server.stop() }
        let (result, report) = try await Self.verify(port: server.port, timeout: api.timeout)
        #expect(!result.timedOut)
        let errors = report["errors"]?.arrayValue ?? []
        let findings = report["findings"]?.arrayValue ?? []
        switch api.outcome {
        case .error(let kind):
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(errors.compactMap { $0["operation"]?.stringValue } == Self.operations)
            for error in errors {
                let message = error["message"]?.stringValue ?? ""
                let expected = kind.isEmpty ? ["response too large", "timed out"] : [kind]
                #expect(expected.contains { message.hasPrefix($0) }, "\(message)")
            }
        case .finding(let id):
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(errors.isEmpty, "\(errors)")
            #expect(findings.compactMap { $0["operation"]?.stringValue } == Self.operations)
            #expect(findings.allSatisfy { $0["id"]?.stringValue == id }, "\(findings)")
        }
    }

    @Test func aNestingLimitNamesTheDepth() async throws {
        let api = try #require(HostileAPI.all.first { $0.name == "deeply nested JSON" })
        let server = try ScriptedServer(behaviour: api.behaviour)
        defer { server.stop() }
        let (_, report) = try await Self.verify(port: server.port)
        let message = report["findings"]?[0]?["message"]?.stringValue ?? ""
        #expect(message.contains("nesting deeper than 512 levels"), "\(message)")
    }

    @Test func redirectsToAnotherHostAreReportedNotFollowed() async throws {
        let elsewhere = try ScriptedServer { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]")
        }
        defer { elsewhere.stop() }
        let server = try ScriptedServer { path, connection in
            connection.write(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(elsewhere.port)\(path)\r\nContent-Length: 0\r\n\r\n"
            )
        }
        defer { server.stop() }
        let (result, report) = try await Self.verify(port: server.port)
        #expect(result.status == 1)
        let findings = report["findings"]?.arrayValue ?? []
        #expect(findings.compactMap { $0["operation"]?.stringValue } == Self.operations)
        #expect(findings.allSatisfy { $0["id"]?.stringValue == "response-status-unexpected" }, "\(findings)")
        #expect(elsewhere.acceptedCount == 0)
    }
}
