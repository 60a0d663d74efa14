import EndpointKit
import Foundation
import RepoBrowserAPI
import StubServerKit
import XCTest

/// The same browser under XCTest, for teams whose suites are XCTest: a stub server per test,
/// on a free port, with a JSONPath-addressed drift.
final class RepoBrowserXCTests: XCTestCase {
    private var server: StubServer!

    override func setUpWithError() throws {
        let stubs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Stubs").path
        server = try StubServer(stubsDirectory: stubs)
        try server.start()
    }

    override func tearDown() {
        server.stop()
    }

    func testRowsComeFromTheStubs() async throws {
        let rows = try await RepoBrowser(baseURL: server.baseURL + "/api").rows(for: "octocat")
        XCTAssertEqual(rows.map(\.stars), [120, 80])
    }

    func testOneRepositorysOwnerIdAsAStringFailsTheDecodeWithItsPath() async throws {
        try server.admin.setVariant("type:$.owner.id")
        do {
            _ = try await RepoBrowser(baseURL: server.baseURL + "/api").rows(for: "octocat")
            XCTFail("a string owner id must not decode")
        } catch {
            guard case .decoding(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.path.contains("owner"), failure.path)
        }
    }
}
