import APISchema
import ContractKit
import ContractModel
import Foundation
import HTTPClient
import HTTPCore
import JSONKit
import PetAppContract
import Testing

/// One change, one finding, whatever the decoder's key strategy: a decode failure is placed at
/// the JSON key the decoder reads (through `convertFromSnakeCase` or a custom strategy) and
/// joins the schema finding it repeats. Without models, a rename hint speaks of the API and
/// the document, not of a model.
@Suite struct KeyStrategyFindingTests {
    struct Reading: Decodable, ContractDecodable {
        let temperatureC: Double
        let city: String
        static let requiredKeys = ["temperatureC", "city"]
    }

    struct CurrentReading: ContractEndpoint {
        typealias Response = Reading
        static let operation = EndpointOperation(.get, "/reading", operationId: "currentReading")
    }

    static func decoder(_ strategy: JSONDecoder.KeyDecodingStrategy) -> @Sendable () -> JSONDecoder {
        { @Sendable in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = strategy
            return decoder
        }
    }

    static func app(_ strategy: JSONDecoder.KeyDecodingStrategy) -> ConsumerContract {
        ConsumerContract(
            title: "Weather", version: "1", endpoints: [CurrentReading.self], makeDecoder: decoder(strategy))
    }

    /// Findings of a live check whose one call answers `body`.
    static func verify(_ contract: Contract, models: ModelRegistry, body: String) async -> [Finding] {
        let transport = ClosureTransport { _ throws(HTTPClientError) in
            HTTPClientResponse(
                status: HTTPStatus(code: 200), headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        let verifier = LiveVerifier(contract: contract, models: models, transport: transport)
        return await verifier.verify(baseURL: "http://api.test", contractName: "t").findings
    }

    @Test(arguments: [
        (
            JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase, #"{"temperature_celsius": 21.5, "city": "Oslo"}"#,
            "$.temperature_c"
        ),
        (
            JSONDecoder.KeyDecodingStrategy.useDefaultKeys, #"{"temperatureCelsius": 21.5, "city": "Oslo"}"#,
            "$.temperatureC"
        ),
    ])
    func aRenamedKeyIsOneFinding(strategy: JSONDecoder.KeyDecodingStrategy, body: String, path: String) async throws {
        let (contract, models) = try Self.app(strategy).make()
        let findings = await Self.verify(contract, models: models, body: body).filter { $0.level != .info }
        #expect(findings.count == 1, "\(findings.map { "\($0.id.rawValue) \($0.path) \($0.message)" })")
        let finding = try #require(findings.first)
        #expect(finding.id == .propertyProbablyRenamed)
        #expect(finding.path == path)
        #expect(finding.message.hasSuffix("the app's decoder fails here: key not found"), "\(finding.message)")
        #expect(!finding.message.contains("keyNotFound"))
        #expect(finding.hint?.contains("in the model's CodingKeys") == true, "\(finding.hint ?? "")")
    }

    @Test func aDecodeFailureIsPlacedAtTheJSONKey() throws {
        let (_, models) = try Self.app(.convertFromSnakeCase).make()
        let outcome = models.decode(Array(#"{"city": "Oslo"}"#.utf8), as: "Reading")
        guard case .failed(let path, _) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(path.description == "$.temperature_c")
    }

    /// A custom strategy is asked which JSON key reaches the coding key, as the contract is.
    @Test func aCustomStrategyIsAskedForTheJSONKey() throws {
        // kebab-case to camelCase; any other key is lower-cased, so `temperatureC` itself does not reach it.
        let kebab = JSONDecoder.KeyDecodingStrategy.custom { path in
            let last = path.last?.stringValue ?? ""
            guard last.contains("-") else { return AnyCodingKey(last.lowercased()) }
            let parts = last.split(separator: "-")
            let camel = (parts.first.map(String.init) ?? "") + parts.dropFirst().map { $0.capitalized }.joined()
            return AnyCodingKey(camel)
        }
        let (_, models) = try Self.app(kebab).make()
        let outcome = models.decode(Array(#"{"city": "Oslo"}"#.utf8), as: "Reading")
        guard case .failed(let path, let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(path.description == "$['temperature-c']")
        #expect(message.contains("custom key strategy"), "\(message)")
    }

    /// A third-party document names no model: the hint is about the API and the document.
    @Test func aRenameWithoutModelsAdvisesOnTheDocument() async throws {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "Vets", "version": "1"},
             "paths": {"/visits/1": {"get": {"responses": {"200": {"description": "a visit",
               "content": {"application/json": {"schema": {"type": "object", "required": ["vetId"],
                 "properties": {"vetId": {"type": "integer"}}}}}}}}}}}
            """
        let contract = try OpenAPIReader().read(Array(document.utf8), source: "vets.json")
        let findings = await Self.verify(contract, models: ModelRegistry(), body: #"{"id": 4}"#)
        let rename = try #require(findings.first { $0.id == .propertyProbablyRenamed })
        let hint = try #require(rename.hint)
        #expect(
            hint.hasPrefix("the API renamed 'vetId' to 'id'? update the document, or ask the API's owners"), "\(hint)")
        #expect(!hint.contains("CodingKeys"))
    }

    /// With the app's models the hint keeps speaking of the model.
    @Test func aRenameWithModelsAdvisesOnTheModel() async throws {
        let (contract, models) = try PetAPIProvider.make()
        let operation = try #require(contract.operation(named: "GET /pets"))
        let body = #"[{"firstName": "A", "lastName": "B", "practitionerId": 1}]"#
        let findings = ContractValidator(contract: contract, models: models)
            .validate(ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation).findings
        let rename = try #require(findings.first { $0.id == .propertyProbablyRenamed })
        #expect(rename.hint?.hasPrefix("rename 'vetId' to 'practitionerId' in the model's CodingKeys") == true)
    }
}

/// A coding key with any name, for a custom key strategy.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
