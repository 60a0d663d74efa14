import ContractKit
import Foundation
import PetAppContract
import TestSupport
import Testing

@Suite struct StubVerifierTests {
    static let stubs = GeneratedContractTests.repositoryRoot.appendingPathComponent("Stubs").path

    func verifier() throws -> StubVerifier {
        let (contract, models) = try PetAPIProvider.make()
        return StubVerifier(contract: contract, models: models)
    }

    /// A temporary stub folder with the given mapping files and body files.
    func folder(_ mappings: [String: String], files: [String: String] = [:]) throws -> String {
        let root = try TemporaryDirectory(prefix: "stubs")
        try root.makeFolder("mappings/sub")
        try root.makeFolder("__files")
        for (name, text) in mappings { try root.write(text, to: "mappings/\(name)") }
        for (name, text) in files { try root.write(text, to: "__files/\(name)") }
        return root.path
    }

    @Test func theRepositoryStubsPass() throws {
        let report = try verifier().verify(directory: StubVerifierTests.stubs, contractName: "built-in")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.errors.isEmpty)
        #expect(report.operations == ["GET /pets", "GET /pets/{id}", "GET /vets", "GET /vets/{id}"])
        #expect(report.notes.contains { $0.contains("variant mappings not checked") })
        #expect(report.outcome(strict: true) == .passed)
    }

    @Test func baseMappingsAreCheckedAndVariantsSkipped() throws {
        let directory = try folder(
            [
                "pets.json":
                    #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": [{"firstName": "Rex", "vetId": "1"}]}}"#,
                "sub/vets.json":
                    #"{"mappings": [{"request": {"method": "GET", "url": "/api/vets/1?x=1"}, "response": {"headers": {"content-type": "application/json"}, "bodyFileName": "vet.json"}}, {"request": {"urlPathTemplate": "/api/vets/{id}"}, "response": {"status": 404, "headers": {"Content-Type": "application/json"}, "base64Body": "eyJjb2RlIjogNDA0fQ=="}}]}"#,
                "variant.json":
                    #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "body": "garbage"}, "metadata": {"variant": "broken"}}"#,
                "fault.json":
                    #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"fault": "EMPTY_RESPONSE"}}"#,
                "other.json": #"{"request": {"method": "GET", "urlPath": "/health"}, "response": {"status": 200}}"#,
                "pattern.json":
                    #"{"request": {"method": "GET", "urlPattern": "/api/vets/.*"}, "response": {"status": 200}}"#,
            ], files: ["vet.json": #"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#])
        let report = try verifier().verify(directory: directory, contractName: "built-in")
        #expect(
            report.findings.map { "\($0.id.rawValue) \($0.operation) \($0.path)" } == [
                "response-property-type-changed GET /pets $[0].vetId",
                "response-optional-property-missing GET /pets $[0].lastName",
                "response-decode-failed GET /pets $[0].vetId",
                "response-optional-property-missing GET /vets/{id} $.message",
            ])
        #expect(report.findings.first?.url?.hasSuffix("mappings/pets.json: GET /api/pets") == true)
        #expect(report.operations == ["GET /pets", "GET /vets/{id}"])
        #expect(report.notes.count == 4)
        #expect(report.errors.isEmpty)
    }

    /// petmock serves `jsonBody` (and a `.json` body file) as `application/json` when the
    /// mapping names no type; verify judges that answer, not the bare mapping.
    @Test func theImpliedContentTypeIsWhatVerifyJudges() throws {
        let directory = try folder(
            [
                "pets.json":
                    #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "jsonBody": [{"firstName": "Rex", "lastName": "Bo", "vetId": 1}]}}"#,
                "vets.json":
                    #"{"request": {"method": "GET", "urlPath": "/api/vets/1"}, "response": {"status": 200, "bodyFileName": "vet.json"}}"#,
            ], files: ["vet.json": #"{"firstName": "Ann", "lastName": "Lee", "title": "DVM"}"#])
        let report = try verifier().verify(directory: directory, contractName: "built-in")
        #expect(!report.findings.contains { $0.message.contains("media type") }, "\(report.findings.map(\.message))")
        #expect(report.summary.breaking == 0, "\(report.findings.map(\.message))")
        #expect(report.operations == ["GET /pets", "GET /vets/{id}"])
    }

    @Test func unreadableMappingsAreErrorsNamingTheFile() throws {
        let directory = try folder([
            "bad.json": "{not json",
            "status.json": #"{"request": {"urlPath": "/api/pets"}, "response": {"status": "200"}}"#,
            "escape.json": #"{"request": {"urlPath": "/api/pets"}, "response": {"bodyFileName": "../../etc/passwd"}}"#,
        ])
        let report = try verifier().verify(directory: directory, contractName: "built-in")
        #expect(report.errors.count == 3)
        #expect(
            report.errors.contains {
                $0.operation.hasSuffix("bad.json") && $0.message.hasPrefix("$: not valid JSON at line 1, column 2")
            })
        #expect(
            report.errors.contains {
                $0.message == "$.response.status: expected an integer from 100 to 599, found string '200'"
            })
        #expect(
            report.errors.contains {
                $0.message
                    == "$.response.bodyFileName: expected a file inside __files/, found '../../etc/passwd'"
            })
        #expect(report.outcome(strict: false) == .couldNotVerify)
    }

    @Test func aFolderWithoutMappingsIsAnError() throws {
        let report = try verifier().verify(directory: "/nonexistent-stubs", contractName: "built-in")
        #expect(report.errors.count == 1)
        #expect(report.outcome(strict: false) == .couldNotVerify)
    }
}
