import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each fault, answered in process, ends in the error URLSession reports when a real server
/// answers with it over loopback.
@Suite struct FaultTableTests {
    static let faults: [(String, HTTPFault)] = [
        ("emptyResponse", .emptyResponse),
        ("connectionReset", .connectionReset),
        ("randomDataThenClose", .randomDataThenClose(byteCount: 64)),
        ("malformedResponseChunk", .malformedResponseChunk()),
        ("truncatedBody", .truncatedBody(HTTPResponse(text: String(repeating: "x", count: 100)), keepingBytes: 10)),
    ]

    @Test(arguments: faults.map(\.0))
    func inProcessErrorIsTheLoopbackError(name: String) async throws {
        let fault = try #require(Self.faults.first { $0.0 == name }?.1)
        let server = try LiveHTTPServer { _ in .fault(fault) }
        defer { server.stop() }
        let loopbackSession = URLSession(configuration: .ephemeral)
        defer { loopbackSession.finishTasksAndInvalidate() }
        let overLoopback = try await fetch(loopbackSession, server.url("/fault"))
        let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .fault(fault) })
        let inProcess = try await fetch(host.session, "http://127.0.0.1:\(server.port)/fault")

        let loopbackCode = try #require(overLoopback.error?.code)
        let inProcessCode = try #require(inProcess.error?.code)
        #expect(
            inProcessCode == loopbackCode,
            "\(name): in process \(inProcessCode.rawValue), loopback \(loopbackCode.rawValue) \(overLoopback.error.map { "\($0)" } ?? "")"
        )
    }
}
