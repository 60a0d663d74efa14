import Foundation
import TestSupport
import Testing

/// `verify --live` and `verify --stub --url` through the real libcurl transport against a
/// server on loopback.
@Suite struct PetContractLiveTests {
    static let json = "application/json"

    /// An API serving exactly what the app calls: `GET /pets` and `GET /vets/{id}` (no
    /// `/pets/{id}`, no `/vets` list: the app never asks for them).
    static func api(pets: String) -> [String: FixedRoutes.Route] {
        [
            "/api/pets": .init(status: 200, contentType: json, body: pets),
            "/api/vets/1": .init(
                status: 200, contentType: json, body: #"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#),
            "/api/vets/2": .init(
                status: 200, contentType: json, body: #"{"firstName": "Omar", "lastName": "Haddad", "title": null}"#),
        ]
    }

    static let goodPets =
        #"[{"firstName": "Rex", "lastName": "Smith", "vetId": 1}, {"firstName": "Bella", "lastName": "Jones", "vetId": 2}]"#

    /// A third-party contract: an operation with no value for its path parameter is skipped
    /// (exit 0; with --strict 2, the check is incomplete), `--param` gives it one; so is one
    /// whose method is not called; a missing optional property is info unless
    /// `--missing-optional warning` says otherwise.
    @Test func aThirdPartyContractSkipsWhatItCannotCallAndKeepsOptionalPropertiesAtInfo() async throws {
        let contract = """
            openapi: 3.0.3
            info: {title: Owners, version: "1"}
            paths:
              /owners:
                get:
                  operationId: listOwners
                  responses:
                    "200":
                      description: owners
                      content:
                        application/json:
                          schema:
                            type: array
                            items: {type: object, required: [name], properties: {name: {type: string}, nickname: {type: string}}}
              /owners/{owner}:
                get:
                  operationId: getOwner
                  parameters: [{name: owner, in: path, required: true, schema: {type: string}}]
                  responses:
                    "200": {description: an owner, content: {application/json: {schema: {type: object}}}}
              /owners/{owner}/pets:
                post:
                  parameters: [{name: owner, in: path, required: true, schema: {type: string}}]
                  responses: {"201": {description: created}}
            """
        let folder = try PetContractProcess.folder(["owners.yaml": contract])
        defer { folder.remove() }
        let file = folder.file("owners.yaml")
        let server = try LiveHTTPServer(
            handler: FixedRoutes([
                "/api/owners": .init(status: 200, contentType: Self.json, body: #"[{"name": "Ann"}]"#),
                "/api/owners/ann": .init(status: 200, contentType: Self.json, body: #"{"name": "Ann"}"#),
            ]))
        defer { server.stop() }
        let verify = ["verify", "--live", server.baseURL + "/api", "--contract", file]
        let skipped = try await PetContractProcess.run(verify)
        #expect(skipped.status == 0, "\(skipped.stdout)\(skipped.stderr)")
        #expect(
            skipped.stdout.contains("GET /owners/{owner}: note: skipped: no value for {owner}"), "\(skipped.stdout)")
        #expect(skipped.stdout.contains("$[0].nickname: note: optional property 'nickname' is missing"))
        #expect(skipped.stdout.contains("optional properties missing or null are info: a third-party contract"))
        #expect(
            skipped.stdout.contains(
                "POST /owners/{owner}/pets: note: skipped: only GET operations are verified live (see --methods)"),
            "\(skipped.stdout)")
        #expect(skipped.stdout.contains("1 operation checked, 2 skipped, against "), "\(skipped.stdout)")
        let strict = try await PetContractProcess.run(verify + ["--strict"])
        #expect(strict.status == 2, "\(strict.stdout)\(strict.stderr)")
        let complete = ["--param", "getOwner:owner=ann", "--exclude", "POST *", "--strict"]
        let json = try await PetContractProcess.run(verify + ["--format", "json"])
        #expect(json.stdout.contains(#""reason": "no value for {owner}""#), "\(json.stdout)")
        let given = try await PetContractProcess.run(verify + complete)
        #expect(given.status == 0, "\(given.stdout)\(given.stderr)")
        #expect(given.stdout.contains("2 operations checked"), "\(given.stdout)")
        #expect(!given.stdout.contains("skipped"))
        let warning = try await PetContractProcess.run(verify + ["--missing-optional", "warning", "--strict"])
        #expect(warning.status == 1, "\(warning.stdout)")
        #expect(warning.stdout.contains("warning: optional property 'nickname' is missing"))
        let ignored = try await PetContractProcess.run(verify + ["--missing-optional", "ignore"] + complete)
        #expect(ignored.status == 0)
        #expect(ignored.stdout.contains("1 ignored"), "\(ignored.stdout)")
        // POST is called only when asked for (with no body; the fixture has no route: 404).
        let posted = try await PetContractProcess.run(
            verify + ["--param", "owner=ann", "--methods", "GET,POST", "--operation", "POST /owners/{owner}/pets"])
        #expect(posted.status == 1, "\(posted.stdout)\(posted.stderr)")
        #expect(posted.stdout.contains("POST /owners/{owner}/pets $: error: status 404"), "\(posted.stdout)")
    }

    @Test func aConformingAPIPassesAndWarningsFailWithStrict() async throws {
        let server = try LiveHTTPServer(
            handler: FixedRoutes(PetContractLiveTests.api(pets: PetContractLiveTests.goodPets)))
        defer { server.stop() }
        let result = try await PetContractProcess.run(["verify", "--live", server.baseURL + "/api", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#""operations": 2"#))
        #expect(result.stdout.contains(#""decodeCheck": "full""#))
        #expect(result.stdout.contains(#""id": "response-optional-property-null""#))
        #expect(result.stdout.contains("/api/vets/2"))
        let strict = try await PetContractProcess.run([
            "verify", "--stub", "--url", server.baseURL + "/api", "--strict",
        ])
        #expect(strict.status == 1)
    }

    /// On a terminal, a progress line names the operation being checked and is cleared at the
    /// end; through a pipe (CI logs) nothing of it appears.
    @Test func progressShowsOnATerminalOnly() async throws {
        let server = try LiveHTTPServer(
            handler: FixedRoutes(PetContractLiveTests.api(pets: PetContractLiveTests.goodPets)))
        defer { server.stop() }
        let url = server.baseURL + "/api"
        let piped = try await PetContractProcess.run(["verify", "--live", url])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("checking") && !piped.stderr.contains("\u{1B}"), "\(piped.stderr)")
        // script(1) runs the tool on a pseudo-terminal and copies what it wrote.
        let tool = try BuiltTools.path(of: "petcontract")
        let terminal = try await ToolProcess.run(
            executable: "/usr/bin/script", ["-qec", "\(tool) verify --live \(url)", "/dev/null"])
        #expect(terminal.status == 0, "\(terminal.stdout)")
        #expect(terminal.stdout.contains("checking [1/2] GET /pets"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("checking [2/2] GET /vets/{id} (call 1 of 2)"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("2 operations checked"))
    }

    @Test func aRenamedFieldIsReportedAsAProbableRename() async throws {
        let renamed = #"[{"firstName": "Rex", "lastName": "Smith", "practitionerId": 1}]"#
        let server = try LiveHTTPServer(handler: FixedRoutes(PetContractLiveTests.api(pets: renamed)))
        defer { server.stop() }
        let result = try await PetContractProcess.run(["verify", "--live", server.baseURL + "/api"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("GET /pets $[0].vetId: error: 'vetId' is missing and 'practitionerId' appeared"))
    }

    @Test func aVetIdWithoutAVetIsADanglingReferenceWarning() async throws {
        let dangling = #"[{"firstName": "Rex", "lastName": "Smith", "vetId": 7}]"#
        let server = try LiveHTTPServer(handler: FixedRoutes(PetContractLiveTests.api(pets: dangling)))
        defer { server.stop() }
        let result = try await PetContractProcess.run([
            "verify", "--live", server.baseURL + "/api", "--format", "github",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("::warning title=response-reference-dangling::GET /vets/{id} $: status 404"))
        let strict = try await PetContractProcess.run(["verify", "--live", server.baseURL + "/api", "--strict"])
        #expect(strict.status == 1)
    }

    @Test func headersGoWithEveryRequest() async throws {
        let server = try LiveHTTPServer(
            handler: FixedRoutes(
                PetContractLiveTests.api(pets: PetContractLiveTests.goodPets),
                requiredHeader: "Authorization: Bearer s3cret"))
        defer { server.stop() }
        let url = server.baseURL + "/api"
        let refused = try await PetContractProcess.run(["verify", "--live", url])
        #expect(refused.status == 1, "without the header every call is a 401")
        #expect(refused.stdout.contains("GET /pets $: error: status 401"), "\(refused.stdout)")
        let allowed = try await PetContractProcess.run([
            "verify", "--live", url, "--header", "Authorization:  Bearer s3cret", "-H", "X-Trace: 1",
        ])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        let bad = try await PetContractProcess.run(["verify", "--live", url, "--header", "Authorization Bearer"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains(
                "The value 'Authorization Bearer' is invalid for '--header': expected 'Name: value'"), "\(bad.stderr)")
    }

    @Test func anUnreachableAPIExitsTwo() async throws {
        let down = try ClosedPort()
        defer { _ = down }
        let url = "http://127.0.0.1:\(down.port)/api"
        let result = try await PetContractProcess.run(["verify", "--live", url, "--timeout", "5"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("GET /pets: error: could not verify: unreachable"))
        #expect(result.stdout.contains("2 errors"))
    }

    /// The origin without the API's `/api`: every operation answers 404, which is a wrong base
    /// URL (exit 2, with the URL to pass), not drift in every operation (exit 1).
    @Test func aBaseURLWithoutThePathPrefixExitsTwoWithTheURLToPass() async throws {
        let server = try LiveHTTPServer(
            handler: FixedRoutes(PetContractLiveTests.api(pets: PetContractLiveTests.goodPets)))
        defer { server.stop() }
        let result = try await PetContractProcess.run(["verify", "--live", server.baseURL])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("response-status-unexpected"), "\(result.stdout)")
        #expect(
            result.stdout.contains("\(server.baseURL)/api/pets answers 200, so pass --live \(server.baseURL)/api"),
            "\(result.stdout)")
        let right = try await PetContractProcess.run(["verify", "--live", server.baseURL + "/api"])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
    }
}
