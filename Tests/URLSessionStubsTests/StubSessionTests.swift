import Foundation
import HTTPHandlerKit
import MockEngine
import StubFormat
import TestSupport
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// petmock's engine behind a URLSession, from a stub folder or mappings in Swift, each session
/// with its own variant, scenario state and journal.
@Suite struct StubSessionTests {
    /// Sixty fields, so that each parallel case can drop a different one.
    static let fields = (0..<60).map { "f\($0)" }

    static let itemsMapping = """
        {"request": {"method": "GET", "urlPath": "/api/items"},
         "response": {"status": 200, "jsonBody": {\(fields.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", "))}}}
        """

    static let scenarioMappings = [
        """
        {"scenarioName": "order", "requiredScenarioState": "Started", "newScenarioState": "paid",
         "request": {"method": "POST", "url": "/api/order/pay"}, "response": {"status": 204}}
        """,
        """
        {"scenarioName": "order", "requiredScenarioState": "Started",
         "request": {"method": "GET", "url": "/api/order"}, "response": {"status": 200, "body": "open"}}
        """,
        """
        {"scenarioName": "order", "requiredScenarioState": "paid",
         "request": {"method": "GET", "url": "/api/order"}, "response": {"status": 200, "body": "paid"}}
        """,
    ]

    static func mappings() throws -> [StubMapping] {
        try ([itemsMapping] + scenarioMappings).map { try StubMapping(json: $0) }
    }

    /// Each case has its own variant and its own scenario path, all in parallel; each sees only
    /// its own answers and its own requests.
    @Test(arguments: 0..<60)
    func eachSessionSeesOnlyItsOwnVariantScenarioAndJournal(index: Int) async throws {
        let stubs = try StubSession(mappings: try Self.mappings(), variant: "missing:f\(index)")
        let items = try await fetch(stubs.session, "https://api.example/api/items")
        #expect(items.status == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: items.data ?? Data()) as? [String: Any])
        #expect(object["f\(index)"] == nil)
        #expect(Set(object.keys) == Set(Self.fields).subtracting(["f\(index)"]))

        let pays = index.isMultiple(of: 2)
        if pays {
            var pay = URLRequest(url: try #require(URL(string: "https://api.example/api/order/pay")))
            pay.httpMethod = "POST"
            #expect(await fetch(stubs.session, pay).status == 204)
        }
        let order = try await fetch(stubs.session, "https://api.example/api/order")
        #expect(order.text == (pays ? "paid" : "open"))
        #expect(stubs.requests.count == (pays ? 3 : 2))
        try stubs.verify(.once, RequestPattern(method: .get, url: .urlPath("/api/items")))
    }

    /// `requests` and `verify`'s list are oldest first, as documented and as `verify` says.
    @Test func theJournalIsOldestFirst() async throws {
        let stubs = try StubSession(mappings: try Self.mappings())
        for path in ["/api/items", "/api/order", "/api/nothing"] {
            _ = try await fetch(stubs.session, "https://api.example" + path)
        }
        #expect(stubs.requests.map(\.url) == ["/api/items", "/api/order", "/api/nothing"])
        let failure = try #require(throws: StubVerificationError.self) {
            try stubs.verify(.once, RequestPattern(method: .post, url: .url("/api/order/pay")))
        }
        #expect(failure.received == ["GET /api/items", "GET /api/order", "GET /api/nothing"])
        #expect("\(failure)".contains("Requests made, oldest first:\n  GET /api/items\n  GET /api/order"), "\(failure)")
    }

    @Test func aStubFolderServesWithItsBodyFilesTemplatesAndPerRequestVariants() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("__files"), withIntermediateDirectories: true)
        try Data(#"{"id": 7, "name": "Ada", "owner": {"login": "ada"}}"#.utf8).write(
            to: URL(fileURLWithPath: folder.file("__files/user.json")))
        try Data(
            """
            {"mappings": [
              {"request": {"method": "GET", "urlPath": "/api/user"},
               "response": {"status": 200, "bodyFileName": "user.json",
                            "headers": {"Content-Type": "application/json"}}},
              {"request": {"method": "GET", "urlPathTemplate": "/api/echo/{word}"},
               "response": {"status": 200, "body": "you said {{request.path.word}}",
                            "transformers": ["response-template"]}}
            ]}
            """.utf8
        ).write(to: URL(fileURLWithPath: folder.file("mappings/api.json")))
        let stubs = try StubSession(stubsDirectory: folder.path)
        #expect(stubs.loadProblems.isEmpty)

        let user = try await fetch(stubs.session, "https://api.example/api/user")
        #expect(user.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(user.text.contains(#""login""#))

        var renamed = URLRequest(url: try #require(URL(string: "https://api.example/api/user")))
        renamed.setValue("rename:$.owner.login=username", forHTTPHeaderField: "X-Petmock-Variant")
        let drifted = await fetch(stubs.session, renamed)
        #expect(drifted.text.contains(#""username""#) && !drifted.text.contains(#""login""#))

        let echo = try await fetch(stubs.session, "https://api.example/api/echo/hello")
        #expect(echo.text == "you said hello")
    }

    @Test func aFaultIsTheURLErrorASessionGives() async throws {
        let mapping = try StubMapping(
            json: #"{"request": {"url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}"#)
        let stubs = try StubSession(mappings: [mapping])
        let fetched = try await fetch(stubs.session, "https://api.example/reset")
        #expect(fetched.error?.code == .networkConnectionLost)
    }

    @Test func aDelayIsRecordedNotWaited() async throws {
        let mapping = try StubMapping(
            json:
                #"{"request": {"url": "/slow"}, "response": {"status": 200, "body": "late", "fixedDelayMilliseconds": 600000}}"#
        )
        let stubs = try StubSession(mappings: [mapping])
        // Ten minutes asked for: the test would hit its time limit if the delay were waited.
        let fetched = try await fetch(stubs.session, "https://api.example/slow")
        #expect(fetched.text == "late")
        #expect(stubs.recordedDelays == [.seconds(600)])
    }

    @Test func aFailedVerificationShowsWhatWasRequestedAndTheNearMisses() async throws {
        let stubs = try StubSession(mappings: try Self.mappings())
        let missed = try await fetch(stubs.session, "https://api.example/api/itemz")
        #expect(missed.status == 404)
        let error = try #require(throws: StubVerificationError.self) {
            try stubs.verify(.once, RequestPattern(method: .get, url: .urlPath("/api/items")))
        }
        #expect(error.matched == 0)
        #expect(error.received == ["GET /api/itemz"])
        let text = error.description
        #expect(text.contains("Expected exactly 1 request matching GET urlPath '/api/items', found 0"))
        #expect(text.contains("Request was not matched"))
        #expect(text.contains("Closest stub"))
        #expect(text.contains("DIFFERS"))
        #expect(stubs.unmatchedReport().contains("GET /api/itemz"))

        try stubs.verify(.never, RequestPattern(method: .post, url: .url("/api/order/pay")))
        try stubs.verify(RequestPattern(url: .urlPath("/api/itemz")))
    }

    /// A request naming a variant no stub has gets petmock's 400, which the app may handle as an
    /// error; the test's verification fails all the same, naming the refusal.
    @Test func anUnknownVariantFailsTheVerification() async throws {
        let stubs = try StubSession(mappings: try Self.mappings())
        var request = URLRequest(url: try #require(URL(string: "https://api.example/api/items")))
        request.setValue("nope", forHTTPHeaderField: "X-Petmock-Variant")
        #expect(await fetch(stubs.session, request).status == 400)
        let error = try #require(throws: StubVerificationError.self) {
            try stubs.verify(.once, RequestPattern(method: .get, url: .urlPath("/api/items")))
        }
        #expect(error.countMet)
        #expect(error.refused.count == 1)
        #expect(error.refused.first?.hasPrefix("GET /api/items: Unknown variant 'nope'") == true)
        #expect(error.description.contains("but petmock refused requests it could not answer as asked"))
        #expect(stubs.requestProblems.map(\.problem.kind) == [.unknownVariant])
        #expect(!stubs.unmatchedReport().contains("Request was not matched"))
        stubs.admin.clearRequests()
        try stubs.verify(.never, RequestPattern(method: .get, url: .urlPath("/api/items")))
    }

    @Test func aVerificationWithABadPatternSaysWhy() throws {
        let stubs = try StubSession(mappings: [])
        let error = try #require(throws: StubVerificationError.self) {
            try stubs.verify(.once, RequestPattern(url: .urlPattern("(unclosed")))
        }
        #expect(error.invalidPattern != nil)
        #expect(error.description.hasPrefix("Cannot verify"))
    }

    @Test func aProxyStubPassesThroughToTheNetworkWithARealSession() async throws {
        let upstream = try LiveHTTPServer { request in
            .response(HTTPResponse(text: "upstream saw \(request.head.target)"))
        }
        defer { upstream.stop() }
        let mapping = try StubMapping(
            json: #"{"request": {"urlPathPattern": "/live/.*"}, "response": {"proxyBaseUrl": "\#(upstream.url(""))"}}"#)
        let stubs = try StubSession(mappings: [mapping])
        let fetched = try await fetch(stubs.session, "https://api.example/live/items?page=2")
        #expect(fetched.status == 200)
        #expect(fetched.text == "upstream saw /live/items?page=2")
        #expect(stubs.requests.first?.upstream != nil)
    }

    @Test func anInvalidMappingFromCodeIsThrown() throws {
        let mapping = try StubMapping(json: #"{"request": {"urlPattern": "(unclosed"}, "response": {"status": 200}}"#)
        #expect(throws: StubSetupError.self) { try StubSession(mappings: [mapping]) }
    }
}
