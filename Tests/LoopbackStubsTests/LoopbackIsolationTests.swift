import Foundation
import HTTPCore
import LoopbackStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Servers started side by side in one process (Swift Testing runs the cases in parallel), each
/// with its own variant and stubs, see only their own requests and answer only with their own.
@Suite struct LoopbackIsolationTests {
    @Test(arguments: 0..<12)
    func eachServerAnswersWithItsOwnStubsAndVariant(index: Int) async throws {
        let mapping = try StubMapping(
            json: #"{"request": {"urlPath": "/api/case"}, "response": {"jsonBody": {"case": \#(index), "tag": "t"}}}"#)
        let variant = index.isMultiple(of: 2) ? "missing:tag" : nil
        let server = try LoopbackStubServer(mappings: [mapping], variant: variant)
        try server.start()
        defer { server.stop() }
        for _ in 1...3 {
            let answer = try await fetch(server.baseURL + "/api/case")
            let expected = index.isMultiple(of: 2) ? #"{"case":\#(index)}"# : #"{"case":\#(index),"tag":"t"}"#
            #expect(answer.text == expected)
        }
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.url == "/api/case" })
    }
}
