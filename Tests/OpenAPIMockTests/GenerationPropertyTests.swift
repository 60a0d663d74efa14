import APISchema
import ContractKit
import Foundation
import JSONKit
import Testing

@testable import HTTPClient
@testable import OpenAPIMock

/// Bodies generated from random schemas and from every response schema of real documents
/// validate against their schema with APISchema's validator.
@Suite struct GenerationPropertyTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ContractKitTests/Fixtures/oai")
    static let github = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/data/api.github.com.json.gz")
    static let kubernetes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Benchmarks/data/kubernetes-v1.25.swagger.json.gz")

    @Test(arguments: 0..<8)
    func randomSchemasGiveValidBodies(batch: Int) throws {
        for index in 0..<50 {
            let seed = UInt64(batch * 50 + index)
            var schemas = RandomSchema(seed: seed)
            let text = schemas.schema().serialized()
            let document = try SchemaDocument(text, components: RandomSchema.components)
            for number in [nil, seed] as [UInt64?] {
                let result = GeneratedBody.make(
                    for: document.schema, in: document.contract, seed: GeneratedBody.Seed(key: "x", number: number))
                switch result {
                case .success(let body):
                    let errors = SchemaConformance(contract: document.contract).errors(body, document.schema)
                    #expect(errors.isEmpty, "seed \(seed): \(text) → \(body.serialized()): \(errors)")
                case .failure(let refusal):
                    Issue.record("seed \(seed): \(text) refused: \(refusal.reason)")
                }
            }
        }
    }

    /// Every response schema of the document: a valid body, fixed and dynamic; the refusals
    /// are returned (a document may hold a schema nothing satisfies).
    static func check(_ contract: Contract) -> (checked: Int, refused: [String]) {
        var checked = 0
        var refused: [String] = []
        let validator = SchemaConformance(contract: contract)
        for operation in contract.operations {
            for response in operation.responses {
                for content in OpenAPIResponder.contents(of: response) {
                    guard let schema = content.schema else { continue }
                    let key = GeneratedBody.key(operation, status: response.status, mediaType: content.mediaType)
                    for number in [nil, 7] as [UInt64?] {
                        let seed = GeneratedBody.Seed(key: key, number: number)
                        switch GeneratedBody.make(for: schema, in: contract, seed: seed) {
                        case .success(let body):
                            let errors = validator.errors(body, schema)
                            #expect(errors.isEmpty, "\(key): \(errors)")
                            checked += 1
                        case .failure(let refusal): refused.append("\(key): \(refusal.reason)")
                        }
                    }
                }
            }
        }
        return (checked, refused)
    }

    static let documents =
        (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path))?
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted() ?? []

    @Test(arguments: documents)
    func everyResponseSchemaOfACorpusDocument(file: String) throws {
        let contract = try OpenAPIReader().read(file: Self.fixtures.appendingPathComponent(file).path)
        let (_, refused) = Self.check(contract)
        #expect(refused.isEmpty, "\(refused)")
    }

    @Test func theCorpusHoldsBothVersionsAndFormats() throws {
        #expect(Self.documents.count >= 19)
        #expect(Self.documents.contains("webhook-example.yaml"))
    }

    @Test func everyResponseSchemaOfGitHubsDescription() throws {
        let compressed = try Array(Data(contentsOf: Self.github))
        let bytes = try ContentDecoding.decode(compressed, coding: "gzip", limit: 64 << 20).get()
        let contract = try OpenAPIReader().read(bytes, source: "api.github.com.json")
        #expect(contract.operations.count > 600)
        let (checked, refused) = Self.check(contract)
        #expect(checked > 1000)
        #expect(refused.isEmpty, "\(refused.count) refused: \(refused.prefix(20))")
    }

    /// Kubernetes' Swagger 2.0 description (the pods' operations, whose bodies reach most of its
    /// components): every response schema gives a valid body, and one checker shared by every
    /// body, as the load-time check shares it, makes the same bodies as a checker each.
    @Test func kubernetesSwaggerBodiesAreTheSameWithASharedChecker() throws {
        let compressed = try Array(Data(contentsOf: Self.kubernetes))
        let bytes = try ContentDecoding.decode(compressed, coding: "gzip", limit: 64 << 20).get()
        var contract = try OpenAPIReader().read(bytes, source: "kubernetes.swagger.json")
        #expect(contract.operations.count == 661)
        contract.operations = contract.operations.filter { $0.path.hasPrefix("/api/v1/namespaces/{namespace}/pods") }
        #expect(contract.operations.count > 20)
        let shared = SchemaConformance(contract: contract)
        var made = 0
        for operation in contract.operations {
            for response in operation.responses {
                for content in OpenAPIResponder.contents(of: response) where content.schema != nil {
                    let schema = try #require(content.schema)
                    let seed = GeneratedBody.Seed(
                        key: GeneratedBody.key(operation, status: response.status, mediaType: content.mediaType))
                    let alone = GeneratedBody.make(for: schema, in: contract, seed: seed)
                    let beside = GeneratedBody.make(for: schema, in: contract, seed: seed, conformance: shared)
                    #expect(alone == beside, "\(operation.name) \(response.status) \(content.mediaType)")
                    if case .success = alone { made += 1 }
                }
            }
        }
        #expect(made > 20)
        #expect(GenerationCheck.problems(in: contract).isEmpty)
    }
}
