import Foundation
import Testing

@testable import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state extension in process: each `StubSession` keeps its own contexts, so tests
/// running side by side (Swift Testing runs the cases in parallel) over the same stub folder
/// never see each other's todos.
@Suite struct StateExtensionSessionTests {
    static let folder = "../../Examples/StateExtension"

    static func create(_ session: URLSession, _ title: String) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: "https://todo.example/todos")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"title":"\#(title)"}"#.utf8)
        let fetched = await fetch(session, request)
        #expect(fetched.response?.statusCode == 201, "\(fetched.text)")
        let object = try JSONSerialization.jsonObject(with: fetched.data ?? Data()) as? [String: Any]
        return try #require(object?["id"] as? String)
    }

    static func titles(_ session: URLSession) async throws -> [String] {
        let fetched = try await fetch(session, "https://todo.example/todos")
        let list = try #require(try JSONSerialization.jsonObject(with: fetched.data ?? Data()) as? [[String: Any]])
        return list.compactMap { $0["title"] as? String }
    }

    @Test(arguments: 0..<32)
    func eachSessionKeepsItsOwnContexts(index: Int) async throws {
        let stubs = try StubSession(stubsDirectory: Self.folder, relativeTo: #filePath)
        let count = index % 4 + 1
        var ids: [String] = []
        for number in 0..<count { ids.append(try await Self.create(stubs.session, "s\(index)-\(number)")) }
        #expect(try await Self.titles(stubs.session) == (0..<count).map { "s\(index)-\($0)" })
        let read = try await fetch(stubs.session, "https://todo.example/todos/\(ids[0])")
        #expect(read.response?.statusCode == 200 && read.text.contains("s\(index)-0"), "\(read.text)")
        #expect(stubs.admin.stateContexts().count == count + 1)
        // The session's reset deletes its contexts: the todo is gone.
        try stubs.admin.reset()
        #expect(try await fetch(stubs.session, "https://todo.example/todos/\(ids[0])").response?.statusCode == 404)
        #expect(try await Self.titles(stubs.session).isEmpty)
    }

    /// A refused state change (here the store's context limit: the first todo and the list take
    /// the two) fails `verify`, naming it.
    @Test func aRefusedStateChangeFailsVerify() async throws {
        var configuration = StubHandlerConfiguration()
        configuration.stateLimits = StateLimits(maximumContexts: 2)
        let stubs = try StubSession(stubsDirectory: Self.folder, relativeTo: #filePath, configuration: configuration)
        _ = try await Self.create(stubs.session, "one")
        #expect(stubs.requestProblems.isEmpty)
        _ = try await Self.create(stubs.session, "two")
        let problem = try #require(stubs.requestProblems.first)
        #expect(problem.problem.kind == .stateRefused && problem.request == "POST /todos")
        let error = #expect(throws: StubVerificationError.self) {
            try stubs.verify(.exactly(2), RequestPattern(method: .post, url: .urlPath("/todos")))
        }
        #expect(error?.countMet == true && error?.refused.count == 1)
    }
}
