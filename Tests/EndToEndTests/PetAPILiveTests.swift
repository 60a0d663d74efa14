import Foundation
import HTTPClient
import HTTPCore
import JSONKit
import PetClient
import PetModels
import TestSupport
import Testing

/// The reference client, `petvet` and `petcontract verify --live` against a real `petapi`
/// process with its seed data, then after the data is edited through the API.
@Suite struct PetAPILiveTests {
    static let seedRows = [
        PetVetCellViewModel(petName: "Rex Smith", vetNameAndTitle: "Ann Lee, DVM"),
        PetVetCellViewModel(petName: "Bella Jones", vetNameAndTitle: "Omar Haddad, BVSc"),
        PetVetCellViewModel(petName: "Milo Garcia", vetNameAndTitle: "Ann Lee, DVM"),
        PetVetCellViewModel(petName: "Luna Chen", vetNameAndTitle: "Grace Okafor, DVM, PhD"),
    ]

    @Test func seedDataGivesEveryRowAndVerifiesClean() async throws {
        let live = try await LivePetAPIProcess()
        defer { live.close() }
        let report = try await ViewModelBuilder(service: RESTPetService(baseURL: live.api)).build()
        #expect(report.rows == PetAPILiveTests.seedRows)
        #expect(report.dropped.isEmpty)

        let petvet = try await PetVetOutput.run(baseURL: live.api)
        #expect(petvet.status == 0)
        #expect(petvet.rows == PetAPILiveTests.seedRows)
        #expect(petvet.dropped.isEmpty)
        #expect(petvet.requests == 4)  // the pets once, then each of the three distinct vets once

        let verify = try await ContractRun.verify(["--live", live.api])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.findings.isEmpty, "\(verify.findings)")
        #expect(verify.operations == 2)
    }

    @Test func aSeedFileFillsANewDatabaseAndABadOneIsRefused() async throws {
        let folder = try TemporaryDirectory(prefix: "petapi-seed")
        defer { folder.remove() }
        let seed = folder.file("seed.json")
        let seedJSON =
            #"{"vets": [{"id": 7, "firstName": "Iris", "lastName": "Novak", "title": null}], "#
            + #""pets": [{"id": 1, "firstName": "Pip", "lastName": null, "vetId": 7}]}"#
        try Data(seedJSON.utf8).write(to: URL(fileURLWithPath: seed))
        let live = try await LivePetAPIProcess(seed: seed)
        defer { live.close() }
        let report = try await ViewModelBuilder(service: RESTPetService(baseURL: live.api)).build()
        #expect(report.rows == [PetVetCellViewModel(petName: "Pip", vetNameAndTitle: "Iris Novak")])

        let bad = folder.file("bad-seed.json")
        try Data(#"{"vets": [], "pets": [{"id": 1, "firstName": 5, "vetId": 7}]}"#.utf8)
            .write(to: URL(fileURLWithPath: bad))
        let refused = try await ToolProcess.run(
            "petapi", ["serve", "--port", "0", "--db", folder.file("other.sqlite"), "--seed", bad])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("bad-seed.json: $.pets[0].firstName"), "\(refused.stderr)")
        let missing = try await ToolProcess.run(
            "petapi", ["serve", "--port", "0", "--db", folder.file("other.sqlite"), "--seed", folder.file("none.json")])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read seed file"), "\(missing.stderr)")
    }

    @Test func editsMadeThroughTheAPIShowInRowsAndFindings() async throws {
        let live = try await LivePetAPIProcess()
        defer { live.close() }
        #expect(try await live.call(.put, "/vets/2", #"{"firstName":"Omar","lastName":"Haddad","title":null}"#) == 200)
        #expect(try await live.call(.delete, "/pets/1") == 204)
        #expect(try await live.call(.delete, "/vets/3") == 204)

        let expectedRows = [
            PetVetCellViewModel(petName: "Bella Jones", vetNameAndTitle: "Omar Haddad"),
            PetVetCellViewModel(petName: "Milo Garcia", vetNameAndTitle: "Ann Lee, DVM"),
        ]
        let report = try await ViewModelBuilder(service: RESTPetService(baseURL: live.api)).build()
        #expect(report.rows == expectedRows)
        #expect(report.dropped.map(\.index) == [2])
        #expect(report.dropped.first?.pet?.firstName == "Luna")
        #expect(report.dropped.first?.description.contains("vet 3 could not be fetched") == true)

        let petvet = try await PetVetOutput.run(baseURL: live.api)
        #expect(petvet.status == 0)
        #expect(petvet.rows == expectedRows)
        #expect(petvet.dropped.map(\.index) == [2])
        #expect(petvet.dropped.first?.reason.contains("vet 3") == true)

        let verify = try await ContractRun.verify(["--live", live.api])
        #expect(verify.status == 0, "warnings alone pass without --strict: \(verify.stdout)")
        #expect(
            verify.findings.map(\.summary) == [
                "response-optional-property-null warning GET /vets/{id} $.title",
                "response-reference-dangling warning GET /vets/{id} $",
            ])
        let strict = try await ContractRun.verify(["--live", live.api, "--strict"])
        #expect(strict.status == 1)
    }

    @Test func aProcessKilledMidWriteLeavesAConsistentDatabase() async throws {
        let directory = try TemporaryDirectory(prefix: "petapi-kill")
        defer { directory.remove() }
        let database = directory.file("pets.sqlite")
        let victim = try await LivePetAPIProcess(database: database).process
        let api = victim.url + "/api"
        let transport = CurlTransport()
        let writes = WriteTally()
        // Sixteen writers post continuously; the 60th acknowledgement kills the server, so
        // writes are in flight at the moment of death.
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for index in 0..<1_000 {
                        writes.attempt()
                        let request = HTTPClientRequest(
                            method: .post, url: api + "/pets", headers: ["Content-Type": "application/json"],
                            body: Array(#"{"firstName":"W\#(worker)-\#(index)","vetId":1}"#.utf8),
                            timeout: .seconds(10))
                        guard let response = try? await transport.send(request), response.status.code == 201 else {
                            writes.fail()
                            return
                        }
                        if writes.acknowledge() == 60 { await victim.kill9() }
                    }
                }
            }
        }
        let (attempted, acked, failed) = writes.totals
        #expect(acked >= 60)
        #expect(failed >= 1, "no write was in flight when the process died")

        let restarted = try await LivePetAPIProcess(database: database)
        defer { restarted.close() }
        let health = try await transport.send(HTTPClientRequest(url: restarted.process.url + "/health"))
        #expect(try JSONValue(parsing: health.body)["database"] == "ok")
        let pets = try await transport.send(HTTPClientRequest(url: restarted.api + "/pets"))
        let count = try #require(try JSONValue(parsing: pets.body).arrayValue?.count)
        // Every acknowledged write survived; unacknowledged ones are all or nothing.
        #expect(count >= 4 + acked)
        #expect(count <= 4 + attempted)
    }

    @Test func sigtermShutsDownGracefully() async throws {
        let live = try await LivePetAPIProcess()
        defer { live.close() }
        #expect(await live.process.stop() == 0)
    }
}

/// Counts attempted, acknowledged and failed writes across tasks.
final class WriteTally: @unchecked Sendable {
    // @unchecked Sendable: the counters are only touched under `lock`.
    private let lock = NSLock()
    private var attempted = 0
    private var acknowledged = 0
    private var failed = 0

    func attempt() {
        lock.withLock { attempted += 1 }
    }

    func acknowledge() -> Int {
        lock.withLock {
            acknowledged += 1
            return acknowledged
        }
    }

    func fail() {
        lock.withLock { failed += 1 }
    }

    var totals: (attempted: Int, acknowledged: Int, failed: Int) {
        lock.withLock { (attempted, acknowledged, failed) }
    }
}
