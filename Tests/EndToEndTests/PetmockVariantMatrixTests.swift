import HTTPClient
import HTTPCore
import PetClient
import PetModels
import TestSupport
import Testing

/// The reference client, `petvet` and `petcontract` against a real `petmock` process serving
/// `Stubs/` with each variant active server-wide: the rows and reasons the app would show,
/// the findings the contract check reports, and never a crash or a hang.
@Suite struct PetmockVariantMatrixTests {
    @Test(arguments: VariantExpectation.all)
    func clientBuilderAndPetvet(expectation: VariantExpectation) async throws {
        let mock = try await PetmockProcess(variant: expectation.variant)
        defer { mock.process.terminate() }
        // Reasons that quote a URL name it as `API/...`: the port differs from run to run.
        let reason = { (text: String) in text.replacing(mock.api, with: "API") }

        // In process: ViewModelBuilder over libcurl.
        let service = RESTPetService(
            baseURL: mock.api, transport: CurlTransport(configuration: .init(totalTimeout: .seconds(10))))
        do {
            let report = try await ViewModelBuilder(service: service).build()
            #expect(expectation.failure == nil, "the pet list should have failed")
            #expect(report.rows == expectation.rows)
            #expect(report.dropped.map { reason("\($0.index): \($0.reason)") } == expectation.dropped)
        } catch {
            let failure = try #require(expectation.failure, "unexpected error: \(error)")
            #expect("\(error)".contains(failure), "\(error)")
        }

        // As a process: petvet.
        let petvet = try await PetVetOutput.run(baseURL: mock.api, extra: ["--timeout", "10"])
        if let failure = expectation.failure {
            #expect(petvet.status == 2)
            #expect(petvet.stderr.contains(failure), "\(petvet.stderr)")
        } else {
            #expect(petvet.status == 0, "\(petvet.stderr)")
            #expect(petvet.rows == expectation.rows)
            #expect(petvet.dropped.map { reason("\($0.index): \($0.reason)") } == expectation.dropped)
            #expect(petvet.requests == expectation.requests)
        }
    }

    @Test(arguments: VariantExpectation.all)
    func contractVerification(expectation: VariantExpectation) async throws {
        let mock = try await PetmockProcess(variant: expectation.variant)
        defer { mock.process.terminate() }
        let run = try await ContractRun.verify(["--live", mock.api, "--timeout", "10"])
        #expect(run.status == expectation.contractExit, "\(run.stdout)\(run.stderr)")
        #expect(run.findings.map(\.summary) == expectation.findings)
        if expectation.contractExit == 2 {
            #expect(!run.errors.isEmpty)
            #expect(run.errors.allSatisfy { $0.contains("connection closed early") }, "\(run.errors)")
        }
    }

    @Test func theRenameIsReportedAsAProbableRenameOfVetId() async throws {
        let mock = try await PetmockProcess(variant: "vet-id-renamed")
        defer { mock.process.terminate() }
        let run = try await ContractRun.verify(["--live", mock.api])
        #expect(run.status == 1)
        let rename = try #require(run.findings.first)
        #expect(rename.id == "response-property-probably-renamed")
        #expect(rename.path == "$[0].vetId")
        #expect(rename.hint?.contains("'practitionerId'") == true)
    }

    @Test func aTimeoutShorterThanTheDelayFailsPromptly() async throws {
        let mock = try await PetmockProcess(variant: "slow:5000")
        defer { mock.process.terminate() }
        let petvet = try await PetVetOutput.run(baseURL: mock.api, extra: ["--timeout", "1"])
        #expect(petvet.status == 2)
        #expect(petvet.stderr.contains("timed out") || petvet.stderr.contains("Timeout"), "\(petvet.stderr)")
        // A hang bound, not a benchmark: the 5 s response must not be waited for.
        #expect(petvet.elapsed < .seconds(4), "petvet ran \(petvet.elapsed)")
    }

    @Test func theStubFilesVerifyClean() async throws {
        let run = try await ContractRun.verify(["--stub", "Stubs"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.findings.isEmpty)
        #expect(run.operations == 2)
    }
}

/// `petmock serve --stubs Stubs --port 0 [--variant NAME]` as a child process.
struct PetmockProcess {
    let process: ServerProcess
    /// `http://127.0.0.1:PORT/api`.
    let api: String

    init(variant: String = "", stubs: String = "Stubs") async throws {
        var arguments = ["serve", "--stubs", stubs, "--port", "0"]
        if !variant.isEmpty { arguments += ["--variant", variant] }
        process = try await ServerProcess("petmock", arguments)
        api = process.url + "/api"
    }
}
