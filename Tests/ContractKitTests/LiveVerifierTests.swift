import ContractKit
import HTTPCore
import JSONKit
import PetAppContract
import Platform
import Testing

/// The live verifier over a fake transport: which URLs it calls, in what order, and what it
/// reports. (Real sockets: the CLI tests run it against a server on loopback.)
@Suite struct LiveVerifierTests {
    final class RequestLog: Sendable {
        let urls = Locked<[String]>([])
        func append(_ url: String) { urls.withLock { $0.append(url) } }
        var all: [String] { urls.withLock { $0 } }
    }

    static let base = "http://api.test/api"

    static func json(_ text: String, status: Int = 200) -> HTTPClientResponse {
        HTTPClientResponse(
            status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }

    /// An API with pets using vets 1, 2 (twice) and 7; vet 7 does not exist.
    static func api(
        _ overrides: [String: HTTPClientResponse] = [:], unreachable: Set<String> = []
    ) -> (ClosureTransport, RequestLog) {
        let log = RequestLog()
        let routes: [String: HTTPClientResponse] = [
            "/api/pets": json(
                #"[{"firstName": "Rex", "lastName": "A", "vetId": 1}, {"firstName": "Bo", "lastName": "B", "vetId": 2}, {"firstName": "Al", "lastName": "C", "vetId": 2}, {"firstName": "Cy", "lastName": "D", "vetId": 7}]"#
            ),
            "/api/pets/1": json(#"{"firstName": "Rex", "lastName": "A", "vetId": 1}"#),
            "/api/vets": json(#"[{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}]"#),
            "/api/vets/1": json(#"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#),
            "/api/vets/2": json(#"{"firstName": "Omar", "lastName": "Haddad", "title": null}"#),
            "/api/vets/7": json(#"{"code": 404, "message": "No vet with that id"}"#, status: 404),
        ].merging(overrides) { $1 }
        let transport = ClosureTransport { request throws(HTTPClientError) in
            log.append(request.url)
            let path = String(request.url.dropFirst("http://api.test".count))
            if unreachable.contains(path) {
                throw HTTPClientError(kind: .couldNotConnect, url: request.url, message: "Connection refused")
            }
            return routes[path] ?? json(#"{"code": 404, "message": "no route"}"#, status: 404)
        }
        return (transport, log)
    }

    func verify(
        _ transport: ClosureTransport, maxPerOperation: Int = 20
    ) async throws -> VerificationReport {
        let (contract, models) = try PetAPIProvider.make()
        let verifier = LiveVerifier(
            contract: contract, models: models, transport: transport,
            configuration: .init(maxPerOperation: maxPerOperation))
        return await verifier.verify(baseURL: LiveVerifierTests.base + "/", contractName: "built-in")
    }

    @Test func eachDistinctVetIdFromPetsIsCheckedOnce() async throws {
        let (transport, log) = LiveVerifierTests.api()
        let report = try await verify(transport)
        #expect(
            log.all == [
                "http://api.test/api/pets", "http://api.test/api/pets/1", "http://api.test/api/vets",
                "http://api.test/api/vets/1", "http://api.test/api/vets/2", "http://api.test/api/vets/7",
            ])
        #expect(report.operations == ["GET /pets", "GET /pets/{id}", "GET /vets", "GET /vets/{id}"])
        #expect(
            report.findings.map { "\($0.id.rawValue) \($0.url ?? "") \($0.path)" } == [
                "response-optional-property-null http://api.test/api/vets/2 $.title",
                "response-reference-dangling http://api.test/api/vets/7 $",
            ])
        let dangling = try #require(report.findings.last)
        #expect(dangling.message.contains("vetId found in GET /pets: 7"))
        #expect(report.outcome(strict: false) == .passed)
        #expect(report.outcome(strict: true) == .failed)
    }

    @Test func maxPerOperationBoundsTheCalls() async throws {
        let (transport, log) = LiveVerifierTests.api()
        _ = try await verify(transport, maxPerOperation: 1)
        #expect(log.all.filter { $0.contains("/vets/") } == ["http://api.test/api/vets/1"])
    }

    @Test func anUnreachableEndpointIsReportedAndTheOthersAreStillChecked() async throws {
        let (transport, log) = LiveVerifierTests.api(unreachable: ["/api/pets"])
        let report = try await verify(transport)
        #expect(report.errors.map(\.operation) == ["GET /pets"])
        #expect(report.errors.first?.message.hasPrefix("unreachable: ") == true)
        // Without pets, the vet ids come from the contract's example (1).
        #expect(log.all.contains("http://api.test/api/vets/1"))
        #expect(report.findings.isEmpty)
        #expect(report.outcome(strict: false) == .couldNotVerify)
    }

    @Test func driftIsFoundInEveryItemAndCollapsed() async throws {
        let renamed = LiveVerifierTests.json(
            #"[{"firstName": "Rex", "lastName": "A", "practitionerId": 1}, {"firstName": "Bo", "lastName": "B", "practitionerId": 2}]"#
        )
        let (transport, _) = LiveVerifierTests.api(["/api/pets": renamed])
        let report = try await verify(transport)
        let rename = try #require(report.findings.first)
        #expect(rename.id == .propertyProbablyRenamed)
        #expect(rename.path == "$[0].vetId")
        #expect(rename.count == 2)
        #expect(rename.swift == "PetJsonModel.vetId: Int?")
    }

    @Test func repeatsAcrossResponsesAreMergedWithTheFirstURL() async throws {
        let untitled = LiveVerifierTests.json(#"{"firstName": "Ann", "lastName": "Lee", "title": null}"#)
        let (transport, _) = LiveVerifierTests.api(["/api/vets/1": untitled, "/api/vets/7": untitled])
        let report = try await verify(transport)
        let nulls = report.findings.filter { $0.id == .optionalPropertyNull }
        #expect(nulls.count == 1)
        #expect(nulls.first?.count == 3)
        #expect(nulls.first?.url == "http://api.test/api/vets/1")
        #expect(report.outcome(strict: false) == .passed)
        #expect(report.outcome(strict: true) == .failed)
    }

    @Test func anOperationWithoutAnyValueIsSkippedNotFailed() async throws {
        var (contract, models) = try PetAPIProvider.make()
        contract.operations[1].parameters[0].examples = []
        let (transport, _) = LiveVerifierTests.api()
        let report = await LiveVerifier(contract: contract, models: models, transport: transport)
            .verify(baseURL: LiveVerifierTests.base, contractName: "c")
        #expect(report.errors.isEmpty)
        #expect(report.skipped == [SkippedOperation(operation: "GET /pets/{id}", reason: "no value for {id}")])
        #expect(!report.operations.contains("GET /pets/{id}"))
        #expect(report.outcome(strict: true) == .failed, "the null title is still a warning")
        #expect(report.summaryLine.hasPrefix("3 operations checked, 1 skipped, against "), "\(report.summaryLine)")
    }
}
