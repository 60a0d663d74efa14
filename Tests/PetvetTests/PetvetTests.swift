import Foundation
import HTTPClient
import HTTPCore
import PetClient
import PetModels
import TestSupport
import Testing

/// `petvet` run as a process, and `ViewModelBuilder` over libcurl, against a real Pet API.
@Suite(.timeLimit(.minutes(10))) struct PetvetTests {
    static let pets = """
        [{"firstName":"Rex","lastName":"Smith","vetId":1},{"firstName":"Bella","vetId":2},
         {"firstName":"Milo","lastName":"Garcia","vetId":1},{"lastName":"Nameless","vetId":1},
         {"firstName":"Tom","vetId":7},{"firstName":"Zed","vetId":3},{"firstName":"Ivy","vetId":4}]
        """
    static let vets: [Int: String?] = [
        1: #"{"firstName":"Ann","lastName":"Lee","title":"DVM"}"#,
        2: #"{"firstName":"Omar","lastName":"Haddad","title":null}"#,
        3: #"{"firstName":"Sam"}"#,
        4: nil,
    ]

    /// Runs the built `petvet` to completion (the shared launcher: one child at a time, and
    /// the wait suspends the task instead of blocking a thread of the pool).
    func petvet(_ arguments: [String]) async throws -> ToolResult {
        try await ToolProcess.run("petvet", arguments, timeout: 30)
    }

    @Test func jsonOutputHasRowsDroppedPetsAndTheRequestCount() async throws {
        let api = try LivePetAPI(pets: Self.pets, vets: Self.vets)
        let run = try await petvet(["--base-url", api.baseURL, "--format", "json", "--timeout", "5"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let rows = try #require(object["rows"] as? [[String: String]])
        #expect(rows.map { $0["petName"] ?? "" } == ["Rex Smith", "Bella", "Milo Garcia"])
        #expect(rows.map { $0["vetNameAndTitle"] ?? "" } == ["Ann Lee, DVM", "Omar Haddad", "Ann Lee, DVM"])
        let dropped = try #require(object["dropped"] as? [[String: Any]])
        #expect(dropped.compactMap { $0["index"] as? Int } == [3, 4, 5, 6])
        let reasons = dropped.compactMap { $0["reason"] as? String }
        #expect(reasons.first == "pet has no 'firstName'")
        #expect(reasons[1].hasPrefix("vet 7 could not be fetched:") && reasons[1].contains("404"))
        #expect(reasons[2] == "vet 3 has no 'lastName'")
        #expect(reasons[3].contains("HTTP 500") && reasons[3].contains("<h1>oops</h1>"))
        // One pet list, then vets 1, 2, 7, 3, 4 once each.
        #expect(object["requests"] as? Int == 6)
        #expect(api.paths.count == 6)
        #expect(
            Set(api.paths) == ["/api/pets", "/api/vets/1", "/api/vets/2", "/api/vets/7", "/api/vets/3", "/api/vets/4"])
    }

    @Test func textOutputIsTheTableThenTheDroppedPets() async throws {
        let api = try LivePetAPI(pets: Self.pets, vets: Self.vets)
        let run = try await petvet(["--base-url", api.baseURL])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.prefix(4) == [
                "PET          VET", "Rex Smith    Ann Lee, DVM", "Bella        Omar Haddad",
                "Milo Garcia  Ann Lee, DVM",
            ])
        #expect(lines.contains("Dropped 4 of 7 pets:"))
        #expect(lines.contains("  pet 3: pet has no 'firstName'"))
        #expect(!run.stdout.contains("\u{1B}["), "no spinner when stdout is not a terminal")
        // The error presenter printed each failed request to stderr.
        #expect(run.stderr.contains("/api/vets/7"))
    }

    @Test func noPetListExitsTwo() async throws {
        let down = try LivePetAPI(
            pets: #"{"code":503,"message":"maintenance"}"#, vets: [:], petsStatus: .serviceUnavailable)
        let run = try await petvet(["--base-url", down.baseURL, "--format", "json"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("maintenance"))
        let refused = try await petvet(["--base-url", "http://127.0.0.1:1/api"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("Failed to connect") || refused.stderr.contains("connect"))
    }

    /// A base URL without the API's path prefix gets 404 for the pets: the error says where it
    /// looked and what the base URL should look like.
    @Test func aPetListThatIsNotThereHintsAtTheBaseURL() async throws {
        let api = try LivePetAPI(pets: #"{"code":404,"message":"no route"}"#, vets: [:], petsStatus: .notFound)
        let run = try await petvet(["--base-url", api.baseURL])
        #expect(run.status == 2)
        #expect(
            run.stderr.contains("\(api.baseURL)/pets is not there: is --base-url the API's base URL?"), "\(run.stderr)")
        #expect(run.stderr.contains("petvet: error: could not fetch the pet list"))
    }

    @Test func usageErrorsExitSixtyFour() async throws {
        #expect(try await petvet([]).status == 64)
        #expect(try await petvet(["--base-url", ""]).status == 64)
        #expect(try await petvet(["--version"]).stdout.hasPrefix("petvet 0."))
        #expect(try await petvet(["--base-url", "http://x", "--format", "xml"]).status == 64)
        let help = try await petvet(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--base-url"))
    }

    @Test func viewModelBuilderOverLibcurlFetchesEachVetOnce() async throws {
        let pets = (0..<200).map { #"{"firstName":"P\#($0)","vetId":\#($0 % 25)}"# }
        var vets: [Int: String?] = [:]
        for id in 0..<25 { vets[id] = #"{"firstName":"V","lastName":"\#(id)","title":"DVM"}"# }
        let api = try LivePetAPI(pets: "[\(pets.joined(separator: ","))]", vets: vets)
        let service = RESTPetService(baseURL: api.baseURL, transport: CurlTransport())
        let report = try await ViewModelBuilder(service: service, maxConcurrentVetRequests: 6).build()
        #expect(report.rows.count == 200)
        #expect(report.rows.map(\.petName) == (0..<200).map { "P\($0)" })
        #expect(report.rows[26].vetNameAndTitle == "V 1, DVM")
        #expect(report.dropped.isEmpty)
        #expect(api.paths.count == 26)
    }
}
