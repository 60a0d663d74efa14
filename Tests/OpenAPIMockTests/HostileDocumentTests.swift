import APISchema
import ContractKit
import Foundation
import HTTPCore
import JSONKit
import OpenAPIMock
import Testing

/// The generation fuzz target's seeds (hostile documents: deep recursion, huge bounds,
/// contradictory `allOf`, unsatisfiable pattern and length, nested choices) give a bounded
/// body or a refusal, at load and when answered.
@Suite struct HostileDocumentTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/openapi-generation")
    static let seeds = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path))?.sorted() ?? []

    @Test func thereAreSeeds() {
        #expect(Self.seeds.count >= 8)
    }

    @Test(arguments: seeds)
    func aBoundedBodyOrARefusal(seed: String) throws {
        let contract = try OpenAPIReader().read(file: Self.corpus.appendingPathComponent(seed).path)
        let problems = GenerationCheck.problems(in: contract)
        let responder = OpenAPIResponder(contract: contract, basePath: "/")
        for prefer in ["", "dynamic=true, seed=7"] {
            let answer = try #require(
                responder.answer(method: .get, path: "/x/1", headers: prefer.isEmpty ? [:] : ["Prefer": prefer]))
            let response = answer.response
            #expect(response.body.count < 1 << 20)
            if response.status.code == 500 {
                #expect(!problems.isEmpty || !prefer.isEmpty, "\(seed): a 500 the load-time check did not report")
                #expect(try JSONValue(parsing: response.body)["pointer"] != nil)
            } else {
                #expect(response.status.code == 200)
                let schema = try #require(contract.operations.first?.responses.first?.schema)
                let errors = SchemaConformance(contract: contract).errors(try JSONValue(parsing: response.body), schema)
                #expect(errors.isEmpty, "\(seed): \(errors)")
            }
        }
    }

    @Test func theHostileSeedsAreRefusedAtLoad() throws {
        for seed in [
            "deep-recursion.json", "huge-bounds.json", "contradictory-allof.json", "pattern-length.json",
            "recursive-choices.json", "contains-hostile.json",
        ] {
            let contract = try OpenAPIReader().read(file: Self.corpus.appendingPathComponent(seed).path)
            #expect(GenerationCheck.problems(in: contract).count == 1, "\(seed)")
        }
    }

    @Test func theContainsSeedGivesABody() throws {
        let contract = try OpenAPIReader().read(file: Self.corpus.appendingPathComponent("contains.json").path)
        #expect(GenerationCheck.problems(in: contract).isEmpty, "\(GenerationCheck.problems(in: contract))")
    }
}
