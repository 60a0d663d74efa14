import APISchema
import ContractKit
import HTTPCore
import Platform
import Testing

/// Responses documented with a media type that is not JSON: the verifier asks for that type,
/// and a text body with a schema is not read as JSON.
@Suite struct MediaTypeVerificationTests {
    static let document = """
        openapi: 3.0.3
        info: {title: Text, version: "1"}
        paths:
          /zen:
            get:
              responses:
                "200":
                  description: A saying
                  content:
                    text/plain:
                      schema: {type: string}
          /board:
            get:
              responses:
                "200":
                  description: The board
                  content:
                    application/json:
                      schema: {type: object}
                "400":
                  description: Bad coordinates
                  content:
                    text/html:
                      schema: {type: string}
        """

    static func contract() throws -> Contract {
        try OpenAPIReader().read(Array(document.utf8), source: "text.yaml")
    }

    @Test func aTextBodyWithASchemaIsNotReadAsJSON() throws {
        let contract = try Self.contract()
        let board = try #require(contract.operations.first { $0.path == "/board" })
        let response = ObservedResponse(
            url: "/board", status: 400, contentType: "text/html", body: Array("Illegal coordinates".utf8))
        let findings = ContractValidator(contract: contract).validate(response, for: board).findings
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        let json = ObservedResponse(url: "/board", status: 200, body: Array("nope".utf8))
        #expect(ContractValidator(contract: contract).validate(json, for: board).findings.map(\.id) == [.bodyNotJSON])
    }

    @Test func theVerifierAsksForTheDocumentedMediaTypes() async throws {
        let contract = try Self.contract()
        let accepted = Locked<[String: String]>([:])
        let transport = ClosureTransport { (request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse in
            let path = String(request.url.split(separator: "/").last ?? "")
            accepted.withLock { $0[path] = request.headers.first(name: "Accept") }
            let text = path == "zen" ? "Keep it logically awesome." : "{}"
            return HTTPClientResponse(
                status: .ok, headers: ["Content-Type": path == "zen" ? "text/plain" : "application/json"],
                body: Array(text.utf8))
        }
        let report = await LiveVerifier(contract: contract, transport: transport)
            .verify(baseURL: "http://127.0.0.1", contractName: "text")
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(accepted.withLock { $0 } == ["zen": "text/plain", "board": "application/json, text/html"])
    }
}
