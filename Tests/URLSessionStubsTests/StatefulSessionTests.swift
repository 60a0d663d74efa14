import Foundation
import Testing

@testable import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `StubSession(openAPIDocument:stateful:)`: each session keeps its own store, so tests running
/// side by side (Swift Testing runs the cases in parallel) never see each other's resources.
@Suite struct StatefulSessionTests {
    static let document = StubSession.path(
        "../OpenAPIMockTests/Fixtures/things.openapi.json", besideFile: #filePath)

    static func create(_ session: URLSession, _ name: String) async throws -> Fetched {
        var request = URLRequest(url: try #require(URL(string: "https://things.example/v1/things")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"\#(name)"}"#.utf8)
        return await fetch(session, request)
    }

    static func names(_ fetched: Fetched) throws -> [String] {
        let list = try #require(try JSONSerialization.jsonObject(with: fetched.data ?? Data()) as? [[String: Any]])
        return list.compactMap { $0["name"] as? String }
    }

    @Test(arguments: 0..<32)
    func eachSessionKeepsItsOwnResources(index: Int) async throws {
        let stubs = try StubSession(openAPIDocument: Self.document, stateful: true)
        let count = index % 5 + 1
        for number in 0..<count {
            let created = try await Self.create(stubs.session, "s\(index)-\(number)")
            #expect(created.status == 201, "\(created.text)")
            #expect(created.response?.value(forHTTPHeaderField: "Location") == "/v1/things/\(number + 3)")
        }
        let listed = try await fetch(stubs.session, "https://things.example/v1/things?limit=50")
        let names = try Self.names(listed)
        // The document's two examples, then this session's own, and nobody else's.
        #expect(names == ["hammer", "kite"] + (0..<count).map { "s\(index)-\($0)" }, "\(listed.text)")
        // The session's reset puts the store back to the examples.
        try stubs.admin.reset()
        #expect(
            try Self.names(try await fetch(stubs.session, "https://things.example/v1/things")) == ["hammer", "kite"])
    }

    @Test func withoutStatefulNothingIsKept() async throws {
        let stubs = try StubSession(openAPIDocument: Self.document)
        #expect(try await Self.create(stubs.session, "kept?").status == 201)
        let names = try Self.names(try await fetch(stubs.session, "https://things.example/v1/things"))
        #expect(!names.contains("kept?"))
    }
}
