import HTTPCore
import HTTPServerKit
import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// The dashboard at `/__admin/ui` and the admin routes it adds: the page under a strict
/// Content-Security-Policy with nothing from elsewhere, who may load it and its data, the
/// load problems and mapping files, and changes from other origins refused.
@Suite struct DashboardTests {
    static let files = ["/__admin/ui", "/__admin/ui/app.js", "/__admin/ui/app.css", "/__admin/ui/icon.svg"]

    @Test func thePageAndItsFilesAreServedWithAContentSecurityPolicy() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let types = ["text/html", "text/javascript", "text/css", "image/svg+xml"]
        for (path, type) in zip(Self.files, types) {
            let response = try server.answer(path)
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Content-Type")?.hasPrefix(type) == true, "\(path)")
            let policy = try #require(response.header("Content-Security-Policy"))
            for directive in [
                "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(directive), "\(path): \(policy)")
            }
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
        let page = try server.answer("/__admin/ui").text
        #expect(page.contains(#"<script src="/__admin/ui/app.js""#))
        // Nothing is fetched from elsewhere, and no inline script or style the policy would refuse.
        for file in ["/__admin/ui", "/__admin/ui/app.js", "/__admin/ui/app.css"] {
            let text = try server.answer(file).text
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(file)")
            #expect(!text.contains("innerHTML") && !text.contains("outerHTML"), "\(file)")
            #expect(!text.contains("style=\"") && !text.contains("onclick"), "\(file)")
        }
        #expect(!page.contains("<script>") && !page.contains("<style>"))
        // The stub path is untouched: a path outside /__admin is not the dashboard.
        #expect(try server.answer("/ui").status == 404)
        #expect(try server.answer("/__admin/ui/other.js").status == 404)
    }

    @Test func withATokenThePageLoadsWithoutItAndEveryDataCallNeedsIt() throws {
        let server = try makeServer(stubs: Fixtures.stubs) { $0.adminAccess = .token("s3cret") }
        for path in Self.files {
            #expect(try server.answer(path).status == 200, "\(path)")
        }
        for path in [
            "/__admin/mappings", "/__admin/requests?limit=10", "/__admin/petmock/problems",
            "/__admin/petmock/sources", "/__admin/petmock/variants", "/__admin/scenarios",
            "/__admin/petmock/webhooks", "/__admin/petmock/contexts",
        ] {
            let refused = try server.answer(path)
            #expect(refused.status == 401 && refused.header("WWW-Authenticate") == "Bearer", "\(path)")
            #expect(try server.answer(path, headers: [("Authorization", "Bearer s3cret")]).status == 200)
        }
        // Only GET: anything else under /__admin/ui is the admin API's, token and all.
        #expect(try server.answer("POST", "/__admin/ui").status == 401)
    }

    @Test func loopbackOnlyAppliesToThePage() throws {
        let server = try startServer(stubs: Fixtures.stubs)
        defer { server.stop() }
        #expect(try fetch(server.port, "/__admin/ui").status == 200)
        // DNS rebinding: the page under another name is refused like the API.
        let client = try RawClient(port: server.port)
        try client.send("GET /__admin/ui HTTP/1.1\r\nHost: attacker.example:\(server.port)\r\n\r\n")
        guard case .response(let rebound) = try client.readOutcome() else {
            Issue.record("no response")
            return
        }
        #expect(rebound.status == 403)
    }

    @Test func theDashboardsOwnChangesPassAndOtherOriginsAreRefused() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let port = 8080  // any: the requests are addressed to `Host: 127.0.0.1`, no port
        let variant = #"{"variant": "vet-id-renamed"}"#
        // What the browser sends from the page itself.
        let own = try server.answer(
            "PUT", "/__admin/petmock/variant",
            headers: [("Origin", "http://127.0.0.1:\(port)"), ("Sec-Fetch-Site", "same-origin")], body: variant)
        #expect(own.status == 200)
        #expect(try server.answer("/api/pets").text.contains("practitionerId"))
        // Another origin, loopback or not, by Sec-Fetch-Site or (older browsers) by Origin.
        for headers in [
            [("Origin", "http://localhost:3000"), ("Sec-Fetch-Site", "same-site")],
            [("Origin", "https://attacker.example"), ("Sec-Fetch-Site", "cross-site")],
            [("Sec-Fetch-Site", "cross-site")], [("Origin", "http://localhost:\(port)")], [("Origin", "null")],
        ] {
            let refused = try server.answer("DELETE", "/__admin/petmock/variant", headers: headers)
            #expect(refused.status == 403, "\(headers)")
            #expect(try server.answer("POST", "/__admin/shutdown", headers: headers).status == 403, "\(headers)")
        }
        #expect(try server.answer("/api/pets").text.contains("practitionerId"))
        // A tool sends neither header; a read from another origin is not a change.
        #expect(
            try server.answer("GET", "/__admin/petmock/variant", headers: [("Sec-Fetch-Site", "cross-site")]).status
                == 200)
        #expect(try server.answer("DELETE", "/__admin/petmock/variant").status == 200)
    }

    @Test func aTokenDoesNotLetAnotherOriginChangeAnything() throws {
        let server = try makeServer(stubs: Fixtures.stubs) { $0.adminAccess = .token("s3cret") }
        let headers = [("Authorization", "Bearer s3cret"), ("Sec-Fetch-Site", "cross-site")]
        #expect(try server.answer("POST", "/__admin/reset", headers: headers).status == 403)
        let own = [("Authorization", "Bearer s3cret"), ("Sec-Fetch-Site", "same-origin")]
        #expect(try server.answer("POST", "/__admin/reset", headers: own).status == 200)
    }

    @Test func theProblemsOfTheLastLoadByFileAndPath() async throws {
        let stubs = try TemporaryStubs()
        stubs.write("mappings/good.json", TemporaryStubs.mapping("/good", body: "ok"))
        stubs.write("mappings/bad.json", #"{"request": {"url": "/bad"}, "response": {"status": "200"}}"#)
        let server = try startServer(stubs: stubs.root) { $0.watch = true }
        defer { server.stop() }
        let problems = try fetch(server.port, "/__admin/petmock/problems").json["problems"]?.arrayValue ?? []
        let bad = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(bad["file"]?.stringValue == stubs.root + "/mappings/bad.json")
        #expect(bad["path"] == "$.response.status" && bad["pointer"] == "/response/status")
        #expect(bad["severity"] == "error" && bad["message"]?.stringValue?.contains("integer") == true)
        #expect(server.admin.loadProblems().count == 1)

        // Fixed on disk: the hot reload clears its problems.
        let events = server.events()
        let badFile = stubs.root + "/mappings/bad.json"
        stubs.write("mappings/bad.json", TemporaryStubs.mapping("/bad", body: "fixed"))
        _ = try await firstEvent(events) { $0.file == badFile }
        #expect(try fetch(server.port, "/__admin/petmock/problems").json["problems"]?.arrayValue?.isEmpty == true)

        // A reset reads everything again.
        stubs.write("mappings/other.json", "{")
        #expect(try fetch(server.port, "POST", "/__admin/mappings/reset").status == 200)
        let afterReset = try fetch(server.port, "/__admin/petmock/problems").json["problems"]?.arrayValue ?? []
        #expect(afterReset.contains { $0["file"]?.stringValue == stubs.root + "/mappings/other.json" })
    }

    @Test func eachMappingsSource() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let created = try server.answer(
            "POST", "/__admin/mappings",
            body: #"{"request": {"url": "/added"}, "response": {"body": "x"}}"#)
        let id = try #require(created.json["id"]?.stringValue)
        let sources = try server.answer("/__admin/petmock/sources").json["mappings"]?.arrayValue ?? []
        #expect(sources.count == Fixtures.stubCount + 1)
        let added = try #require(sources.first { $0["id"]?.stringValue == id })
        #expect(added["source"] == "admin" && added["file"] == .null)
        #expect(
            sources.contains {
                $0["source"] == "file" && $0["file"]?.stringValue == Fixtures.stubs + "/mappings/vets.json"
            })
        // The mappings themselves keep WireMock's shape.
        let mapping = try server.answer("/__admin/mappings/\(id)").json
        #expect(mapping["file"] == nil && mapping["petmockFile"] == nil)
    }
}
