import Foundation
import Testing

/// `petcontract diff` with a Swagger 2.0 contract, with the real binary: the OpenAPI
/// Initiative's 2.0 petstore against its 3.0 successor reports the three real changes.
@Suite struct PetContractSwaggerTests {
    @Test func diffReadsASwaggerDocument() async throws {
        let folder = PetContractProcess.repositoryRoot.appendingPathComponent("Tests/ContractKitTests/Fixtures/oai")
        let old = folder.appendingPathComponent("swagger2-petstore.yaml").path
        let new = folder.appendingPathComponent("petstore.yaml").path
        #expect(try await PetContractProcess.run(["diff", old, old]).status == 0)
        let result = try await PetContractProcess.run(["diff", old, new, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        for id in [
            "request-parameter-bound-tightened", "request-body-added-required", "response-property-type-changed",
        ] {
            #expect(result.stdout.contains(#""id": "\#(id)""#), "\(result.stdout)")
        }
    }
}
