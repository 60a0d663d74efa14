import ContractKit
import HTTPClient
import HTTPCore
import PetAppContract
import TestSupport
import Testing

/// A base URL without the API's path prefix makes every operation answer 404 (or a web
/// page): that is "could not verify" with a hint, not drift in every operation.
@Suite struct WrongBaseURLTests {
    static let json = "application/json"

    static func petAPI(prefix: String = "/api") -> FixedRoutes {
        FixedRoutes([
            "\(prefix)/pets": .init(body: #"[{"firstName": "Rex", "lastName": "Smith", "vetId": 1}]"#),
            "\(prefix)/vets/1": .init(body: #"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#),
        ])
    }

    func verify(_ server: LiveHTTPServer, base: String) async throws -> VerificationReport {
        let (contract, models) = try PetAPIProvider.make()
        let verifier = LiveVerifier(contract: contract, models: models, transport: CurlTransport())
        return await verifier.verify(baseURL: base, contractName: "built-in")
    }

    @Test func everyOperationAnswering404IsCouldNotVerifyWithTheBaseURLToPass() async throws {
        let server = try LiveHTTPServer(handler: Self.petAPI())
        defer { server.stop() }
        let report = try await verify(server, base: server.baseURL)
        #expect(report.outcome(strict: false) == .couldNotVerify)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1)
        #expect(error.message.contains("every operation answered 404 at \(server.baseURL)"), "\(error.message)")
        // The library's words name no option; a command line names its own from the parts.
        #expect(
            error.message.contains(
                "the base URL is the API's, path prefix included: \(server.baseURL)/api/pets answers 200, so pass \(server.baseURL)/api"
            ),
            "\(error.message)")
        let wrong = try #require(error.wrongBaseURL)
        #expect(wrong.suggestion?.baseURL == server.baseURL + "/api")
        #expect(
            wrong.message(option: "--live").contains(
                "--live takes the API's base URL, path prefix included: \(server.baseURL)/api/pets answers 200, so pass --live \(server.baseURL)/api"
            ))
    }

    @Test func everyOperationAnsweringAWebPageIsCouldNotVerify() async throws {
        let page = FixedRoutes.Route(
            contentType: "text/html; charset=utf-8", body: "<!doctype html><title>Shop</title>")
        let server = try LiveHTTPServer(
            handler: FixedRoutes(["/pets": page, "/pets/1": page, "/vets": page, "/vets/1": page]))
        defer { server.stop() }
        let report = try await verify(server, base: server.baseURL)
        #expect(report.outcome(strict: false) == .couldNotVerify)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        let error = try #require(report.errors.first)
        #expect(error.message.contains("every operation answered with a web page (text/html)"), "\(error.message)")
        #expect(error.message.contains("path prefix included"), "\(error.message)")
    }

    /// Some operations answer and others 404: that is drift in those operations.
    @Test func aSingle404AmongAnswersStaysAFinding() async throws {
        let server = try LiveHTTPServer(
            handler: FixedRoutes([
                "/api/pets": .init(body: #"[{"firstName": "Rex", "lastName": "Smith", "vetId": 1}]"#)
            ]))
        defer { server.stop() }
        let report = try await verify(server, base: server.baseURL + "/api")
        #expect(report.errors.isEmpty)
        #expect(report.outcome(strict: false) == .failed)
        #expect(report.findings.contains { $0.id == .statusUnexpected && $0.operation == "GET /vets" })
    }
}

extension WrongBaseURLTests {
    /// One operation called and its 404 with nothing under `/api` either: a route the API
    /// lacks, so drift in that operation (exit 1), not a wrong base URL.
    @Test func oneOperationAnswering404IsDriftUnlessTheProbeFindsTheAPI() async throws {
        let server = try LiveHTTPServer(handler: Self.petAPI())
        defer { server.stop() }
        let (contract, models) = try PetAPIProvider.make()
        let only = try OperationSelection(operations: ["GET /vets"]).apply(to: contract)
        let verifier = LiveVerifier(contract: only, models: models, transport: CurlTransport())
        let drift = await verifier.verify(baseURL: server.baseURL + "/api", contractName: "built-in")
        #expect(drift.errors.isEmpty, "\(drift.errors)")
        #expect(drift.outcome(strict: false) == .failed)
        let wrong = await verifier.verify(baseURL: server.baseURL, contractName: "built-in")
        #expect(wrong.outcome(strict: false) == .failed, "GET /vets is not under /api either")
        let pets = try OperationSelection(operations: ["GET /pets"]).apply(to: contract)
        let missingPrefix = await LiveVerifier(contract: pets, models: models, transport: CurlTransport())
            .verify(baseURL: server.baseURL, contractName: "built-in")
        #expect(missingPrefix.outcome(strict: false) == .couldNotVerify)
        #expect(missingPrefix.errors.first?.message.contains("so pass \(server.baseURL)/api") == true)
    }
}

extension WrongBaseURLTests {
    /// A gateway's HTML error page (502) for every operation is the API failing: drift, exit 1.
    @Test func anHTMLErrorPageEverywhereStaysAFinding() async throws {
        let page = FixedRoutes.Route(status: 502, contentType: "text/html", body: "<html>Bad Gateway</html>")
        let server = try LiveHTTPServer(
            handler: FixedRoutes(["/api/pets": page, "/api/pets/1": page, "/api/vets": page, "/api/vets/1": page]))
        defer { server.stop() }
        let report = try await verify(server, base: server.baseURL + "/api")
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.outcome(strict: false) == .failed)
    }
}

extension WrongBaseURLTests {
    /// Answers 404 to everything (no socket): no base URL finds the API.
    static let nothingThere = ClosureTransport { _ throws(HTTPClientError) in
        HTTPClientResponse(status: HTTPStatus(code: 404), headers: ["Content-Type": "application/json"], body: [])
    }

    func wrongBaseError(_ base: String) async throws -> String {
        let (contract, models) = try PetAPIProvider.make()
        let report = await LiveVerifier(contract: contract, models: models, transport: Self.nothingThere)
            .verify(baseURL: base, contractName: "built-in")
        #expect(report.outcome(strict: false) == .couldNotVerify)
        return try #require(report.errors.first).message
    }

    /// A base URL with a wrong path is named as what it is, and no URL that nothing answered
    /// at is offered in its place.
    @Test func aBaseURLWithAPathIsNamedSoAndNoURLIsMadeUp() async throws {
        let message = try await wrongBaseError("http://api.test:8081/v2/api")
        #expect(message.contains("http://api.test:8081/v2/api is a base URL with the path /v2/api"), "\(message)")
        #expect(!message.contains("origin"), "\(message)")
        #expect(!message.contains("/v2/api/api"), "\(message)")
        #expect(!message.contains("such as"), "\(message)")
    }

    /// An origin is called one, and the probe's `/api` is said to have found nothing either.
    @Test func anOriginIsNamedSoAndNoURLIsMadeUp() async throws {
        let message = try await wrongBaseError("http://api.test:8081/")
        #expect(message.contains("http://api.test:8081 is an origin, with no path"), "\(message)")
        #expect(message.contains("nothing was found under http://api.test:8081/api either"), "\(message)")
        #expect(!message.contains("such as"), "\(message)")
    }
}

extension WrongBaseURLTests {
    /// What the probe found nothing under is named by its shape, trailing slashes aside.
    @Test(arguments: [
        (
            "http://h:8081",
            "http://h:8081 is an origin, with no path, and nothing was found under http://h:8081/api either"
        ),
        ("https://h/", "https://h is an origin, with no path, and nothing was found under https://h/api either"),
        (
            "http://h:8081/v2/api/",
            "http://h:8081/v2/api is a base URL with the path /v2/api, and nothing was found under it, nor under a shorter path, with or without /api"
        ),
    ])
    func nothingFoundNamesWhatWasPassed(base: String, expected: String) {
        #expect(BaseURLProbe.nothingFound(under: base) == expected)
    }
}

extension WrongBaseURLTests {
    /// A wrong or doubled path prefix finds the API under a shorter path, alone or with `/api`,
    /// and only a URL that answered is suggested.
    @Test(arguments: [("/api/api", "/api"), ("/v2/api", "/api"), ("/api/v2", "/api"), ("/api/pets", "/api")])
    func aWrongPrefixFindsTheAPIUnderAShorterPath(passed: String, found: String) async throws {
        let server = try LiveHTTPServer(handler: Self.petAPI())
        defer { server.stop() }
        let report = try await verify(server, base: server.baseURL + passed)
        #expect(report.outcome(strict: false) == .couldNotVerify)
        let wrong = try #require(report.errors.first?.wrongBaseURL)
        #expect(wrong.suggestion?.baseURL == server.baseURL + found, "\(wrong.message(option: "--live"))")
        #expect(wrong.suggestion?.status == 200)
    }

    /// The base URLs tried, in order; the one passed is never among them.
    @Test(arguments: [
        ("http://h", ["http://h/api"]),
        ("http://h/api", ["http://h/api/api", "http://h"]),
        ("http://h/v2/api", ["http://h/v2/api/api", "http://h/v2", "http://h", "http://h/api"]),
        (
            "http://h/a/b/c/d/e",
            [
                "http://h/a/b/c/d/e/api", "http://h/a/b/c/d", "http://h/a/b/c/d/api", "http://h/a/b/c",
                "http://h/a/b/c/api", "http://h/a/b", "http://h/a/b/api", "http://h/a", "http://h/a/api",
            ]
        ),
    ])
    func candidatesAreShorterPathsAloneAndWithTheAPIPrefix(base: String, expected: [String]) {
        #expect(BaseURLProbe.candidates(for: base) == expected)
    }
}
