import EndpointKit
import HTTPCore
import PetClient
import PetModels
import Testing

@Suite(.timeLimit(.minutes(10))) struct ViewModelBuilderTests {
    static let vets = [
        1: #"{"firstName":"Ann","lastName":"Lee","title":"DVM"}"#,
        2: #"{"firstName":"Omar","lastName":"Haddad","title":null}"#,
        3: #"{"firstName":"Sam"}"#,
    ]

    @Test func rowsKeepPetOrderAndEachVetIsFetchedOnce() async throws {
        let api = FakePetAPI(
            petsJSON: """
                [{"firstName":"Rex","lastName":"Smith","vetId":1},{"firstName":"Bella","vetId":2},
                 {"firstName":"Milo","lastName":"Garcia","vetId":1},{"firstName":"Luna","lastName":"","vetId":2}]
                """, vetsJSON: Self.vets)
        let report = try await ViewModelBuilder(service: api.service()).build()
        #expect(
            report.rows == [
                PetVetCellViewModel(petName: "Rex Smith", vetNameAndTitle: "Ann Lee, DVM"),
                PetVetCellViewModel(petName: "Bella", vetNameAndTitle: "Omar Haddad"),
                PetVetCellViewModel(petName: "Milo Garcia", vetNameAndTitle: "Ann Lee, DVM"),
                PetVetCellViewModel(petName: "Luna", vetNameAndTitle: "Omar Haddad"),
            ])
        #expect(report.dropped.isEmpty)
        #expect(report.petCount == 4)
        #expect(api.paths.first == "/pets")
        #expect(api.paths.count == 3)
        #expect(Set(api.paths.dropFirst()) == ["/vets/1", "/vets/2"])
    }

    @Test func everyPetNotShownIsExplained() async throws {
        let api = FakePetAPI(
            petsJSON: """
                [{"firstName":"Rex","vetId":1},{"lastName":"Nameless","vetId":4},{"firstName":"Tom"},
                 {"firstName":"Zed","vetId":3},{"firstName":"Kit","vetId":9},{"firstName":"Ivy","vetId":1}]
                """, vetsJSON: Self.vets)
        let report = try await ViewModelBuilder(service: api.service()).build()
        #expect(report.rows.map(\.petName) == ["Rex", "Ivy"])
        #expect(report.dropped.map(\.index) == [1, 2, 3, 4])
        #expect(
            report.dropped.map(\.reason.description) == [
                "pet has no 'firstName'", "pet has no 'vetId'", "vet 3 has no 'lastName'",
                "vet 9 could not be fetched: \(FakePetAPI.baseURL)/vets/9: HTTP 404 Not Found: 'no route /vets/9' (code 404)",
            ])
        guard case .vetUnavailable(9, .http(let status, _, _, _)) = report.dropped[3].reason else {
            Issue.record("expected vet 9 to be unavailable with an HTTP error: \(report.dropped[3])")
            return
        }
        #expect(status == .notFound)
        // Vet 4 belongs only to a pet without a name, so it is never asked for.
        #expect(!api.paths.contains("/vets/4"))
        #expect(report.dropped[0].description == "pet 1: pet has no 'firstName'")
        #expect(report.dropped[2].description == "pet 3 'Zed': vet 3 has no 'lastName'")
    }

    @Test func aPetThatDoesNotDecodeLosesOnlyItsOwnRow() async throws {
        let api = FakePetAPI(
            petsJSON: #"[{"firstName":"Rex","vetId":1},{"firstName":"Bo","vetId":"2"},{"firstName":"Ivy","vetId":1}]"#,
            vetsJSON: Self.vets)
        let report = try await ViewModelBuilder(service: api.service()).build()
        #expect(report.rows.map(\.petName) == ["Rex", "Ivy"])
        #expect(report.petCount == 3)
        #expect(report.dropped.map(\.index) == [1])
        #expect(report.dropped.first?.pet == nil)
        #expect(
            report.dropped.first?.description
                == #"pet 1: \#(FakePetAPI.baseURL)/pets: cannot decode [PetJsonModel] at $[1].vetId: expected Int, found string "2""#
        )
        // The undecodable pet's vet is never asked for.
        #expect(api.paths == ["/pets", "/vets/1"])
    }

    @Test func aVetThatDoesNotDecodeLosesOnlyItsOwnPets() async throws {
        let api = FakePetAPI(
            petsJSON:
                #"[{"firstName":"Rex","vetId":1},{"firstName":"Bella","vetId":5},{"firstName":"Milo","vetId":1}]"#,
            vetsJSON: [1: Self.vets[1] ?? "", 5: #"{"firstName":"Eve","lastName":7}"#])
        let report = try await ViewModelBuilder(service: api.service()).build()
        #expect(report.rows.map(\.petName) == ["Rex", "Milo"])
        guard case .vetUnavailable(5, .decoding(let failure)) = report.dropped.first?.reason else {
            Issue.record("expected a decoding failure for vet 5: \(report.dropped)")
            return
        }
        #expect(failure.path == "lastName")
        #expect(failure.excerpt == "7")
    }

    @Test func noPetListIsAnError() async {
        let api = FakePetAPI(
            routes: ["/pets": .json(#"{"code":503,"message":"down"}"#, status: .serviceUnavailable)])
        await #expect {
            try await ViewModelBuilder(service: api.service()).build()
        } throws: { error in
            guard case .maintenance = error as? EndpointError else { return false }
            return true
        }
        #expect(api.paths == ["/pets"])
    }

    @Test(arguments: [1, 3, 8])
    func vetRequestsStayWithinTheBoundAndUseIt(bound: Int) async throws {
        let pets = (0..<60).map { #"{"firstName":"P\#($0)","vetId":\#($0 % 20)}"# }
        var vets: [Int: String] = [:]
        for id in 0..<20 { vets[id] = #"{"firstName":"V","lastName":"\#(id)"}"# }
        let gate = ConcurrencyGate(bound: bound, total: 20)
        let api = FakePetAPI(petsJSON: "[\(pets.joined(separator: ","))]", vetsJSON: vets, gate: gate)
        let report = try await ViewModelBuilder(service: api.service(), maxConcurrentVetRequests: bound).build()
        #expect(report.rows.count == 60)
        #expect(report.rows.map(\.petName) == (0..<60).map { "P\($0)" })
        #expect(report.rows.map(\.vetNameAndTitle) == (0..<60).map { "V \($0 % 20)" })
        #expect(api.requests.count == 21)
        #expect(gate.maxInFlight == bound)
    }

    @Test func cancellingTheBuildStopsVetRequestsAndThrows() async throws {
        let pets = (0..<10).map { #"{"firstName":"P\#($0)","vetId":\#($0)}"# }
        let gate = ConcurrencyGate(bound: 4, total: 10, releases: false)
        let api = FakePetAPI(petsJSON: "[\(pets.joined(separator: ","))]", vetsJSON: [:], gate: gate)
        let service = api.service()
        let build = Task { try await ViewModelBuilder(service: service, maxConcurrentVetRequests: 4).build() }
        for await arrived in gate.arrivalCounts where arrived == 4 { break }
        build.cancel()
        let result = await build.result
        guard case .failure(let error) = result, case .cancelled = error as? EndpointError else {
            Issue.record("expected the build to throw cancelled, got \(result)")
            return
        }
        // No vet request beyond the first four was started once the build was cancelled.
        #expect(api.requests.count == 5)
    }

    @Test func seedsCompletionShimDeliversTheRows() async {
        let api = FakePetAPI(petsJSON: #"[{"firstName":"Rex","vetId":1}]"#, vetsJSON: Self.vets)
        let rows = await withCheckedContinuation { continuation in
            ViewModelBuilder.petVetTableCellViewModels(petService: api.service()) { continuation.resume(returning: $0) }
        }
        #expect(rows == [PetVetCellViewModel(petName: "Rex", vetNameAndTitle: "Ann Lee, DVM")])
    }
}
