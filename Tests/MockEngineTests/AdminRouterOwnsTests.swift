import Testing

@testable import AdminAPI
@testable import MockEngine
@testable import StubServerKit

/// Which paths the admin API owns: `/__admin` and everything below it, nothing that only
/// starts with the same letters.
@Suite struct AdminRouterOwnsTests {
    @Test(
        arguments: [
            ("/__admin", true), ("/__admin/", true), ("/__admin/mappings", true), ("/__admin/petmock/variant", true),
            ("/__adminx", false), ("/__admin-ui", false), ("/__admi", false), ("/__ADMIN/mappings", false),
            ("/api/__admin", false), ("", false), ("/", false), ("/__admin\u{301}/mappings", false),
        ] as [(String, Bool)])
    func ownsTheAdminPrefixOnly(path: String, owned: Bool) {
        #expect(AdminRouter.owns(path[...]) == owned, "\(path)")
    }
}
