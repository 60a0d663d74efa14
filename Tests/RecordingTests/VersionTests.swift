import ArgumentKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

/// petmock has one version: `petmock --version` prints petkit's, and the admin API's
/// `/__admin/version` and `/__admin/health` report the same.
@Suite struct VersionTests {
    @Test func theAdminAPIReportsTheVersionTheToolPrints() throws {
        #expect(StubServer.version == petkitVersion)
        let server = try StubServer(mappings: [], configuration: StubServerConfiguration(port: 0))
        let answer = try server.answer("GET", "/__admin/version", headers: [("Accept", "text/plain")])
        #expect(answer.text == petkitVersion)
    }
}
