import Foundation
import Testing

@testable import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a test's stub folder comes from, whatever the working directory: the test bundle's
/// resources, or a folder beside the test's source file.
@Suite struct StubFolderPlacesTests {
    @Test func aFolderInTheTestBundleIsServed() async throws {
        let stubs = try StubSession(bundle: .module)
        #expect(stubs.loadProblems.isEmpty, "\(stubs.loadProblems)")
        let answer = try await fetch(stubs.session, "https://api.example/api/greeting")
        #expect(answer.status == 200 && answer.text == #"{"greeting":"hello from the bundle"}"#)
    }

    @Test func aBundleWithoutTheFolderSaysWhereItLooked() {
        #expect {
            _ = try StubSession(bundle: .module, subdirectory: "NoSuchStubs")
        } throws: { error in
            guard case .load(.rootNotFound(let path))? = error as? StubSetupError else { return false }
            return path.hasSuffix("/NoSuchStubs")
        }
    }

    @Test func aFolderBesideTheSourceFileIsFoundFromAnyDirectory() async throws {
        let stubs = try StubSession(stubsDirectory: "Stubs", relativeTo: #filePath)
        let answer = try await fetch(stubs.session, "https://api.example/api/greeting")
        #expect(answer.status == 200)
        #expect(
            StubSession.path("Stubs", besideFile: "/src/Tests/AppTests/ListTests.swift") == "/src/Tests/AppTests/Stubs")
        #expect(StubSession.path("/abs/Stubs", besideFile: "/src/Tests/X.swift") == "/abs/Stubs")
    }
}
