import APISchema
import ContractKit
import Foundation
import JSONKit
import PetAppContract
import Testing

@Suite struct GeneratedContractTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Fails when the checked-in contract is not what `petcontract generate` writes today:
    /// run `swift run petcontract generate` and commit the result.
    @Test func checkedInContractIsUpToDate() throws {
        let file = GeneratedContractTests.repositoryRoot.appendingPathComponent("Contracts/petapi.openapi.json")
        let checkedIn = try String(contentsOf: file, encoding: .utf8)
        let (contract, _) = try PetApp.contract.make()
        #expect(
            checkedIn == OpenAPIWriter().text(contract),
            "Contracts/petapi.openapi.json is stale: run 'swift run petcontract generate' and commit it")
    }

    @Test(arguments: [true, false]) func writtenContractReadsBackTheSame(appContract: Bool) throws {
        let (contract, _) = appContract ? try PetApp.contract.make() : try PetAPIProvider.make()
        let text = OpenAPIWriter().text(contract)
        let read = try OpenAPIReader().read(Array(text.utf8), source: "generated")
        // The writer names unnamed examples `example1`, `example2`, ...; reading keeps the names.
        var unnamed = read
        for operation in unnamed.operations.indices {
            for response in unnamed.operations[operation].responses.indices {
                unnamed.operations[operation].responses[response].namedExamples = []
            }
        }
        #expect(unnamed == contract)
        #expect(OpenAPIWriter().text(read) == text)
    }

    /// The app's contract is what the app calls, no more: the pet list and each pet's vet.
    @Test func theAppsContractIsWhatTheAppCalls() throws {
        let (contract, models) = try PetApp.contract.make()
        #expect(contract.operations.map(\.name) == ["GET /pets", "GET /vets/{id}"])
        let vet = try #require(contract.operation(named: "GET /vets/{id}"))
        #expect(vet.pathParameters.first?.sources == [ParameterSource(operation: "GET /pets", path: "$[*].vetId")])
        #expect(vet.pathParameters.first?.examples == [1])
        #expect(vet.pathParameters.first?.schema.types == [.integer])
        #expect(vet.response(for: 404)?.swiftType == "APIErrorMessage")
        #expect(vet.response(for: 200)?.swiftType == "VetJsonModel")
        #expect(models.coverage(of: contract) == .full)
    }

    @Test func theProviderDescriptionHasEveryReadOperation() throws {
        let (contract, models) = try PetAPIProvider.make()
        #expect(contract.operations.map(\.name) == ["GET /pets", "GET /pets/{id}", "GET /vets", "GET /vets/{id}"])
        let vet = try #require(contract.operation(named: "GET /vets/{id}"))
        #expect(vet.pathParameters.first?.sources == [ParameterSource(operation: "GET /pets", path: "$[*].vetId")])
        #expect(vet.pathParameters.first?.examples == [1])
        #expect(vet.response(for: 404)?.swiftType == "APIErrorMessage")
        #expect(vet.response(for: 200)?.swiftType == "VetJsonModel")
        #expect(models.typeNames.contains("[PetJsonModel]"))
        #expect(models.decode(Array(#"{"firstName": 1}"#.utf8), as: "VetJsonModel") != .decoded)
        #expect(models.decode(Array("{}".utf8), as: "Unknown") == .notRegistered)
    }
}
