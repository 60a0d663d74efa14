import Foundation
import TestSupport
import Testing

/// The `petcontract` executable end to end: each command and each exit code (0 nothing
/// breaking, 1 breaking, 2 could not verify, 64 usage).
@Suite struct PetContractCLITests {
    static let driftedStub =
        #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": [{"firstName": "Rex", "lastName": "Smith", "practitionerId": 1}]}}"#
    static let warningStub =
        #"{"request": {"method": "GET", "url": "/api/vets/1"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": {"firstName": "Ann", "lastName": "Lee", "title": null}}}"#

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> PetContractProcess.Result {
        try await PetContractProcess.run(arguments, environment: environment)
    }

    @Test func generateWritesTheCheckedInContract() async throws {
        let folder = try PetContractProcess.folder([:])
        defer { folder.remove() }
        let output = URL(fileURLWithPath: folder.file("out/petapi.openapi.json"))
        let result = try await run(["generate", "--output", output.path])
        #expect(result.status == 0)
        let written = try String(contentsOf: output, encoding: .utf8)
        let checkedIn = try String(
            contentsOf: PetContractProcess.repositoryRoot.appendingPathComponent("Contracts/petapi.openapi.json"),
            encoding: .utf8)
        #expect(written == checkedIn)
        let toStdout = try await run(["generate", "-o", "-"])
        #expect(toStdout.status == 0)
        #expect(toStdout.stdout == checkedIn)
    }

    @Test func verifyStubOnTheRepositoryStubsPasses() async throws {
        let result = try await run(["verify", "--stub", "Stubs", "--strict"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("0 breaking, 0 warnings"))
        #expect(!result.stdout.contains("\u{1B}["), "no colour when standard output is not a terminal")
    }

    /// A third-party contract names no Swift types: the check is the schema alone, and the
    /// summary says so instead of passing over it in silence.
    @Test func aContractWithoutModelsSaysTheDecodeCheckDidNotRun() async throws {
        let contract = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {"/pets": {"get": {
              "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
                {"type": "array", "items": {"type": "object", "properties": {"firstName": {"type": "string"}}}}}}}}}}}}
            """
        let folder = try PetContractProcess.folder(["third-party.json": contract])
        defer { folder.remove() }
        let file = folder.file("third-party.json")
        let text = try await run(["verify", "--stub", "Stubs", "--contract", file])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(
            text.stdout.contains("schema only: no Codable models, so the decode check did not run"), "\(text.stdout)")
        let json = try await run(["verify", "--stub", "Stubs", "--contract", file, "--format", "json"])
        #expect(json.stdout.contains(#""decodeCheck": "none""#), "\(json.stdout)")
        let builtIn = try await run(["verify", "--stub", "Stubs"])
        #expect(!builtIn.stdout.contains("decode check did not run"), "\(builtIn.stdout)")
    }

    /// A run that checked no operation is no pass, in every mode: "could not verify" (exit 2)
    /// unless `--allow-empty` accepts it. The contract's one operation has no value for its
    /// parameter, so nothing is called and the closed port is never reached.
    @Test func aRunThatChecksNothingCouldNotVerify() async throws {
        let contract = #"""
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {"/owners/{owner}": {"get": {
              "parameters": [{"name": "owner", "in": "path", "required": true, "schema": {"type": "string"}}],
              "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {}}}}}}}}}
            """#
        let folder = try PetContractProcess.folder([
            "owners.json": contract,
            "stubs/mappings/shops.json":
                #"{"request": {"method": "GET", "urlPath": "/api/shops"}, "response": {"status": 200}}"#,
        ])
        defer { folder.remove() }
        let stub = try await run(["verify", "--stub", folder.file("stubs")])
        #expect(stub.status == 2, "\(stub.stdout)\(stub.stderr)")
        #expect(stub.stdout.contains("skipped, no operation of the contract has this path"), "\(stub.stdout)")
        #expect(stub.stdout.contains("could not verify: no operation was checked"), "\(stub.stdout)")
        #expect(stub.stdout.contains("0 operations checked, 2 skipped, against "), "\(stub.stdout)")
        let allowed = try await run(["verify", "--stub", folder.file("stubs"), "--allow-empty"])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(!allowed.stdout.contains("could not verify"), "\(allowed.stdout)")
        for mode in [["--live", "http://127.0.0.1:9/api"], ["--stub", "--url", "http://127.0.0.1:9/api"]] {
            let verify = ["verify"] + mode + ["--contract", folder.file("owners.json")]
            let result = try await run(verify + ["--format", "json"])
            #expect(result.status == 2, "\(mode): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("no operation was checked"), "\(mode): \(result.stdout)")
            #expect(try await run(verify + ["--allow-empty"]).status == 0, "\(mode)")
        }
    }

    @Test func breakingDriftExitsOne() async throws {
        let folder = try PetContractProcess.folder(["mappings/pets.json": PetContractCLITests.driftedStub])
        defer { folder.remove() }
        let result = try await run(["verify", "--stub", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("GET /pets $[0].vetId: error:"))
        #expect(result.stdout.contains("[response-property-probably-renamed]"))
    }

    @Test func warningsFailOnlyWithStrict() async throws {
        let folder = try PetContractProcess.folder(["mappings/vet.json": PetContractCLITests.warningStub])
        defer { folder.remove() }
        #expect(try await run(["verify", "--stub", folder.path]).status == 0)
        #expect(try await run(["verify", "--stub", folder.path, "--strict"]).status == 1)
    }

    @Test func ignoreFileAcceptsFindings() async throws {
        let folder = try PetContractProcess.folder([
            "mappings/pets.json": PetContractCLITests.driftedStub,
            "ignore.txt": "response-property-probably-renamed $[*].vetId GET /pets\n",
            "bad-ignore.txt": "no-such-finding $\n",
        ])
        defer { folder.remove() }
        let accepted = try await run([
            "verify", "--stub", folder.path, "--ignore", folder.file("ignore.txt"),
        ])
        #expect(accepted.status == 0)
        #expect(accepted.stdout.contains("1 ignored"))
        let bad = try await run([
            "verify", "--stub", folder.path, "--ignore", folder.file("bad-ignore.txt"),
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad-ignore.txt:1: unknown finding id 'no-such-finding'"))
    }

    @Test func unreadableStubsAndContractsExitTwo() async throws {
        let folder = try PetContractProcess.folder([
            "stubs/mappings/broken.json": "{",
            "not-json.json": "<html>",
            "not-openapi.json": #"{"info": {"title": "no version"}}"#,
            "no-operations.json": #"{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}}"#,
        ])
        defer { folder.remove() }
        let stubs = try await run(["verify", "--stub", folder.file("stubs")])
        #expect(stubs.status == 2)
        // The problem petmock reports for the file, in the same words.
        #expect(stubs.stdout.contains("could not verify: $: not valid JSON at line 1, column 2 (offset 1)"))
        let notJSON = try await run([
            "verify", "--stub", "Stubs", "--contract", folder.file("not-json.json"),
        ])
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.contains("not JSON: line 1, column 1 (offset 0)"))
        let notOpenAPI = try await run([
            "verify", "--stub", "Stubs", "--contract", folder.file("not-openapi.json"),
        ])
        #expect(notOpenAPI.status == 2)
        #expect(notOpenAPI.stderr.contains("$.openapi: expected an OpenAPI version"))
        #expect(try await run(["verify", "--stub", "Stubs", "--contract", "/nonexistent.json"]).status == 2)
        let empty = try await run([
            "verify", "--live", "http://127.0.0.1:9/api", "--contract",
            folder.file("no-operations.json"),
        ])
        #expect(empty.status == 2, "a contract with nothing to check is no pass")
        #expect(
            empty.stderr.contains("$.paths: expected at least one operation to verify, found none"), "\(empty.stderr)")
    }

    @Test(arguments: [
        [], ["verify"], ["verify", "--live", "http://x", "--stub"], ["verify", "--stub", "--format", "xml"],
        ["verify", "--stub", "--bogus"], ["verify", "--stub", "--max-per-operation", "0"],
        ["verify", "--stub", "Stubs", "--url", "http://x"], ["verify", "--live", "http://x", "--url", "http://y"],
        ["diff", "only-one.json"], ["frobnicate"], ["generate", "--output"],
        ["verify", "--stub", "Stubs", "--param", "id=1"], ["verify", "--live", "http://x", "--methods", "GET,FETCH"],
        ["verify", "--stub", "Stubs", "--missing-optional", "loud"], ["verify", "--live", "http://x", "--param", "id"],
    ])
    func usageErrorsExitSixtyFour(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("petcontract: error: "))
    }

    /// A selector or `--param` that fits no operation is a usage error naming it, found before
    /// anything is called (the port here is closed: a call would be exit 2).
    @Test func selectorsAndParamsThatMatchNothingAreUsageErrors() async throws {
        let cases: [([String], String)] = [
            (["--include", "GET /nope*"], "--include 'GET /nope*' matches no operation"),
            (["--exclude", "*/admin/*"], "--exclude '*/admin/*' matches no operation"),
            (["--operation", "listOwners"], "--operation 'listOwners' matches no operation"),
            (["--param", "ownerId=1"], "no operation of the contract has a parameter 'ownerId'"),
            (["--param", "GET /pets:id=1"], "'GET /pets' has no parameter 'id'"),
            (["--param", "getVeterinarian:id=1"], "--param 'getVeterinarian' matches no operation"),
        ]
        for (arguments, message) in cases {
            let result = try await run(["verify", "--live", "http://127.0.0.1:9/api"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let stub = try await run(["verify", "--stub", "Stubs", "--exclude", "listPets"])
        #expect(stub.status == 0, "\(stub.stdout)\(stub.stderr)")
        #expect(stub.stdout.contains("1 mapping of operations not selected"), "\(stub.stdout)")
        #expect(stub.stdout.contains("1 operation checked"), "\(stub.stdout)")
    }

    @Test func diffExitCodes() async throws {
        let contract = PetContractProcess.repositoryRoot.appendingPathComponent("Contracts/petapi.openapi.json").path
        let original = try String(contentsOfFile: contract, encoding: .utf8)
        let changed = original.replacing(#""vetId": {"#, with: #""vetIdentifier": {"#)
            .replacing(#""vetId""#, with: #""vetIdentifier""#)
        let folder = try PetContractProcess.folder(["changed.json": changed])
        defer { folder.remove() }
        let changedPath = folder.file("changed.json")
        #expect(try await run(["diff", contract, contract]).status == 0)
        let breaking = try await run(["diff", contract, changedPath, "--format", "json"])
        #expect(breaking.status == 1)
        #expect(breaking.stdout.contains(#""id": "response-property-probably-renamed""#))
        #expect(try await run(["diff", contract, "/nonexistent.json"]).status == 2)
    }

    @Test(arguments: ["json", "junit", "github", "sarif", "html", "text"])
    func everyFormatCanBeWrittenToAFile(format: String) async throws {
        let folder = try PetContractProcess.folder(["mappings/pets.json": PetContractCLITests.driftedStub])
        defer { folder.remove() }
        let output = URL(fileURLWithPath: folder.file("report/out.\(format)"))
        let result = try await run(["verify", "--stub", folder.path, "--format", format, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("petcontract: 1 operation checked, 1 skipped; "), "\(result.stderr)")
        #expect(result.stderr.contains("report written to"))
        let report = try String(contentsOf: output, encoding: .utf8)
        #expect(report.contains("response-property-probably-renamed"))
    }
}
