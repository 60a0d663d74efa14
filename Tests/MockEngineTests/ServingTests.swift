import HTTPCore
import HTTPServerKit
import JSONKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

/// The repository's pet/vet stubs as the server answers them (as values; the slow, fault and
/// keep-alive cases over a real socket): the base, every file variant,
/// the ways to pick a variant, and the unmatched report.
@Suite struct ServingTests {
    static let petsID = "5d1a4c52-0000-4000-8000-000000000001"

    @Test func basePetsAndVets() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let pets = try server.answer("/api/pets")
        #expect(pets.status == 200)
        #expect(pets.headers["Content-Type"] == "application/json")
        #expect(pets.headers["Matched-Stub-Id"] == Self.petsID)
        #expect(pets.headers["Matched-Stub-Name"] == "pets: list")
        #expect(pets.json.arrayValue?.count == 4)
        #expect(pets.json[0]?["vetId"] == 1)
        let vetIDs = Set((pets.json.arrayValue ?? []).compactMap { $0["vetId"]?.intValue })
        for id in vetIDs.sorted() {
            let vet = try server.answer("/api/vets/\(id)")
            #expect(vet.status == 200 && vet.json["firstName"]?.stringValue != nil, "vet \(id)")
        }
        let unknown = try server.answer("/api/vets/99")
        #expect(unknown.status == 404)
        #expect(unknown.json == ["code": 404, "message": "No vet with that id"])
        #expect(unknown.headers["Matched-Stub-Name"] == "vets: unknown id")
    }

    static let jsonVariants: [(String, String, @Sendable (JSONValue) -> Bool)] = [
        ("missing-last-name", "/api/pets", { $0[1]?["lastName"] == nil && $0[1]?["firstName"] == "Bella" }),
        ("vet-id-string", "/api/pets", { $0[1]?["vetId"] == "2" && $0[0]?["vetId"] == 1 }),
        ("vet-id-renamed", "/api/pets", { $0[0]?["vetId"] == nil && $0[0]?["practitionerId"] == 1 }),
        ("pets-wrapped", "/api/pets", { $0["items"]?.arrayValue?.count == 4 }),
        ("vet-title-null", "/api/vets/2", { $0["title"] == .null && $0["firstName"] == "Omar" }),
    ]

    @Test(arguments: jsonVariants)
    func fileVariantsOverlayTheBase(_ variant: String, _ path: String, _ check: @Sendable (JSONValue) -> Bool) throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let response = try server.answer(path, headers: [("X-Petmock-Variant", variant)])
        #expect(response.status == 200)
        #expect(response.headers["Petmock-Variant"] == variant)
        #expect(check(response.json), "\(response.text)")
        let base = try server.answer(path)
        #expect(base.headers["Petmock-Variant"] == nil)
    }

    @Test func aVariantWithoutAStubForThePathFallsBackToTheBase() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let vet = try server.answer("/api/vets/1", headers: [("X-Petmock-Variant", "pets-wrapped")])
        #expect(vet.status == 200 && vet.json["firstName"] == "Ann")
    }

    @Test func errorAndBrokenBodyVariants() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let truncated = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "truncated-json")])
        #expect(truncated.status == 200)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: truncated.body) }
        #expect(truncated.text.hasPrefix("[{\"firstName\":\"Rex\""))
        let empty = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "empty-body")])
        #expect(empty.status == 200 && empty.body.isEmpty && empty.headers["Content-Length"] == "0")
        let proxy = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "proxy-html-502")])
        #expect(proxy.status == 502 && proxy.headers["Content-Type"]?.hasPrefix("text/html") == true)
        #expect(proxy.text.contains("<h1>502 Bad Gateway</h1>"))
        let failure = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "server-error-500")])
        #expect(failure.status == 500 && failure.json["code"] == 500 && failure.json["message"]?.stringValue != nil)
        let maintenance = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "maintenance-503")])
        #expect(maintenance.status == 503 && maintenance.headers["Retry-After"] == "120")
    }

    @Test func slowAndResetVariants() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let slowly = [("X-Petmock-Variant", "slow")]
        #expect(server.reply("/api/pets", headers: slowly).fixedDelay == .milliseconds(1500))
        let slow = try server.answer("/api/pets", headers: slowly)
        #expect(slow.status == 200 && slow.json.arrayValue?.count == 4)
        #expect(
            server.reply("/api/pets", headers: [("X-Petmock-Variant", "connection-reset")]).fault() == .connectionReset)
    }

    @Test func preferHeadersPickVariantsAndStatuses() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let example = try server.answer("/api/pets", headers: [("Prefer", "example=vet-id-string")])
        #expect(example.json[1]?["vetId"] == "2")
        let code = try server.answer("/api/pets", headers: [("Prefer", "code=503")])
        #expect(code.status == 503)
        let notFound = try server.answer("/api/vets/1", headers: [("Prefer", "code=404")])
        #expect(notFound.status == 404 && notFound.json["code"] == 404)
        let impossible = try server.answer("/api/pets", headers: [("Prefer", "code=418")])
        #expect(impossible.status == 400)
        #expect(impossible.text.contains("statuses available: 200, 500, 502, 503"))
    }

    @Test func unknownVariantsAre400sListingTheKnownOnes() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let response = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "no-such-variant")])
        #expect(response.status == 400)
        #expect(response.text.contains("Unknown variant 'no-such-variant'"))
        #expect(response.text.contains("vet-id-string") && response.text.contains("missing:FIELD"))
        let malformed = try server.answer(
            "/api/pets", headers: [("X-Petmock-Variant", "rename:vetId"), ("Accept", "application/json")])
        #expect(malformed.status == 400 && malformed.json["message"]?.stringValue?.contains("rename:FIELD=NEW") == true)
    }

    @Test func serverWideVariantFromConfigurationAndAdmin() throws {
        let server = try makeServer(stubs: Fixtures.stubs) { $0.variant = "vet-id-string" }
        #expect(try server.answer("/api/pets").json[1]?["vetId"] == "2")
        let perRequest = try server.answer("/api/pets", headers: [("X-Petmock-Variant", "pets-wrapped")])
        #expect(perRequest.json["items"] != nil)
        try server.admin.setVariant("missing:vetId")
        #expect(try server.answer("/api/pets").json[0]?["vetId"] == nil)
        try server.admin.setVariant(nil)
        #expect(try server.answer("/api/pets").json[0]?["vetId"] == 1)
        #expect(throws: VariantError.self) { try server.admin.setVariant("nope") }
        #expect(throws: StubServerError.self) {
            _ = try StubServer(stubsDirectory: Fixtures.stubs, configuration: StubServerConfiguration(variant: "nope"))
        }
    }

    @Test func unmatchedRequestsGetTheReport() throws {
        let server = try makeServer(stubs: Fixtures.stubs)
        let text = try server.answer("/api/pet")
        #expect(text.status == 404 && text.headers["Content-Type"]?.hasPrefix("text/plain") == true)
        #expect(text.text.hasPrefix("Request was not matched"))
        #expect(text.text.contains("Closest stub: 'pets: list' (mappings/pets.json)"))
        #expect(text.text.contains("url       DIFFERS  expected urlPath '/api/pets', found '/api/pet'"))
        let json = try server.answer("POST", "/api/pets", headers: [("Accept", "application/json")], body: "{}")
        #expect(json.status == 404 && json.json["message"] == "Request was not matched")
        let closest = try #require(json.json["closestStubs"]?[0])
        #expect(closest["id"] == .string(Self.petsID))
        let criteria = closest["criteria"]?.arrayValue ?? []
        #expect(criteria.first?["criterion"] == "method" && criteria.first?["matched"] == false)
        #expect(criteria.dropFirst().first?["matched"] == true)
    }

    @Test func headRequestsAndKeepAliveReuse() throws {
        let server = try startServer(stubs: Fixtures.stubs)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for _ in 0..<3 {
            try client.sendRequest("GET", "/api/vets/1")
            #expect(try client.readOutcome().response?.json["lastName"] == "Lee")
        }
        // HEAD on the same connection: the GET's headers, no body, and the connection stays usable.
        try client.sendRequest("HEAD", "/api/vets/1")
        let head = try #require(try client.readOutcome(head: true).response)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == "application/json")
        #expect(head.header("Matched-Stub-Id") != nil)
        try client.sendRequest("GET", "/api/vets/1")
        #expect(try client.readOutcome().response?.json["lastName"] == "Lee")
    }
}
