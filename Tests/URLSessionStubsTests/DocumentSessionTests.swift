import Foundation
import Testing

@testable import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A team with only an OpenAPI document stubs in process too: the document answers, checks
/// requests and drifts, as `petmock serve --openapi` does.
@Suite struct DocumentSessionTests {
    static let document = StubSession.path("../../Contracts/petapi.openapi.json", besideFile: #filePath)

    @Test func theDocumentAnswersChecksRequestsAndDrifts() async throws {
        let stubs = try StubSession(openAPIDocument: Self.document, basePath: "/api")
        let pets = try await fetch(stubs.session, "https://api.example/api/pets")
        #expect(pets.status == 200)
        let list = try #require(try JSONSerialization.jsonObject(with: pets.data ?? Data()) as? [[String: Any]])
        #expect(list.first?["vetId"] != nil, "\(pets.text)")
        // A request the document does not allow is refused with its violations.
        let refused = try await fetch(stubs.session, "https://api.example/api/vets/not-a-number")
        #expect(refused.status == 400, "\(refused.text)")
        #expect(refused.text.contains("path.id"), "\(refused.text)")
        // Drift variants apply to the document's answers as to a stub's.
        try stubs.setVariant("missing:$[*].vetId")
        let drifted = try await fetch(stubs.session, "https://api.example/api/pets")
        let driftedList = try #require(
            try JSONSerialization.jsonObject(with: drifted.data ?? Data()) as? [[String: Any]])
        #expect(driftedList.allSatisfy { $0["vetId"] == nil }, "\(drifted.text)")
        #expect(stubs.requests.map(\.documentOperation) == ["GET /pets", "GET /vets/{id}", "GET /pets"])
    }

    @Test func aYAMLDocumentIsRefusedWithTheConversion() {
        let yaml = StubSession.path("../../Examples/Bookshelf/openapi.yaml", besideFile: #filePath)
        #expect {
            _ = try StubSession(openAPIDocument: yaml)
        } throws: { error in
            guard case .documentIsYAML(yaml)? = error as? StubSetupError else { return false }
            return "\(error)".contains("petmock convert --openapi '\(yaml)' --out DOCUMENT.json")
        }
    }

    @Test func aMissingDocumentSaysSo() {
        #expect {
            _ = try StubSession(openAPIDocument: "/no/such/openapi.json")
        } throws: { error in
            "\(error)" == "Cannot answer from the OpenAPI document: "
                + "\(ContractError.io(path: "/no/such/openapi.json", message: "no such file"))"
        }
    }

    /// The document's `security` is enforced in process too: a request without a bearer token or
    /// Basic credentials gets a 401 naming both schemes, one with either the answer;
    /// `enforcesSecurity: false` lets it in. On Linux the Basic challenge names no realm:
    /// FoundationNetworking would take the 401 into its authentication handling and the task
    /// would never complete.
    @Test func theDocumentsSecurityIsEnforcedUnlessTurnedOff() async throws {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "security": [{"token": []}, {"basic": []}],
             "paths": {"/me": {"get": {"responses": {"200": {"description": "ok",
               "content": {"application/json": {"example": {"name": "a"}}}}}}}},
             "components": {"securitySchemes": {"token": {"type": "http", "scheme": "bearer"},
               "basic": {"type": "http", "scheme": "basic"}}}}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secured-\(UUID().uuidString).json")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stubs = try StubSession(openAPIDocument: file.path)
        let refused = try await fetch(stubs.session, "https://api.example/me")
        #expect(refused.status == 401, "\(refused.text)")
        #if canImport(FoundationNetworking)
        let challenges = "Bearer, Basic"
        #else
        let challenges = #"Bearer, Basic realm="petmock""#
        #endif
        #expect(refused.response?.value(forHTTPHeaderField: "WWW-Authenticate") == challenges)
        for credentials in ["Bearer t0k3n", "Basic dGVzdDp0ZXN0"] {
            var request = URLRequest(url: try #require(URL(string: "https://api.example/me")))
            request.setValue(credentials, forHTTPHeaderField: "Authorization")
            #expect(await fetch(stubs.session, request).status == 200, "\(credentials)")
        }
        #expect(stubs.requests.first?.violations.map(\.location) == ["header.Authorization", "header.Authorization"])

        let open = try StubSession(openAPIDocument: file.path, enforcesSecurity: false)
        #expect(try await fetch(open.session, "https://api.example/me").status == 200)
    }
}
