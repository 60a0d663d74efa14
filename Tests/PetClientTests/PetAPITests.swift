import EndpointKit
import HTTPCore
import PetClient
import PetModels
import Testing

@Suite struct PetAPITests {
    let client = EndpointClient(baseURL: "http://api.test/v1/", transport: ClosureTransport { _ in .json("[]") })

    @Test func petAPIEndpointsHaveTheirPaths() throws {
        #expect(try client.request(for: PetAPI.Pets()).url == "http://api.test/v1/pets")
        #expect(try client.request(for: PetAPI.Vet(id: 42)).url == "http://api.test/v1/vets/42")
    }

    @Test func petAPIEndpointsExpectJSON() {
        #expect(PetAPI.Pets().decoding.expectsJSON)
        #expect(PetAPI.Vet(id: 1).decoding.expectsJSON)
    }
}
