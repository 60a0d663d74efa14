import ContractKit
import HTTPCore
import MockEngine
import PetAppContract
import StubFormat
import StubServerKit
import Testing

/// petmock (``StubLoader``) and `petcontract verify --stub` (``StubVerifier``) read a stub
/// folder through the one ``StubFolder``: the same mappings, the same problems, the same
/// body-file rule.
@Suite struct StubReadersAgreeTests {
    func verify(_ root: String) throws -> VerificationReport {
        let (contract, models) = try PetAPIProvider.make()
        return StubVerifier(contract: contract, models: models).verify(directory: root, contractName: "built-in")
    }

    static let petsBody = #"[{"firstName": "Rex", "lastName": "Hill", "vetId": 1}]"#

    @Test func aBodyFileLinkedOutOfFilesIsRefusedByBothWithOneMessage() throws {
        // `__files/pets.json` is a link to a file beside `__files/`, inside the stub folder: a
        // path check without resolving links would read it; both readers refuse it.
        let folder = try TemporaryStubFolder([
            "mappings/pets.json":
                #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyFileName": "pets.json"}}"#,
            "secret.json": StubReadersAgreeTests.petsBody,
        ])
        defer { folder.remove() }
        try folder.link("__files/pets.json", to: "../secret.json")

        let loaded = try StubLoader(root: folder.root).load()
        #expect(loaded.mappings.isEmpty)
        let problem = try #require(loaded.problems.first)
        #expect(loaded.problems.count == 1)
        #expect(problem.kind == .bodyFileOutsideRoot)
        #expect(problem.path == "$.response.bodyFileName")
        #expect(problem.message.hasPrefix("expected a file inside __files/, found 'pets.json' (resolves to '"))

        let report = try verify(folder.root)
        #expect(
            report.errors == [
                VerificationError(
                    operation: problem.file, url: problem.file, message: "\(problem.path): \(problem.message)")
            ])
        #expect(report.operations.isEmpty, "the mapping is not checked")
    }

    @Test func aBodyFileLinkedInsideFilesIsReadByBoth() throws {
        let folder = try TemporaryStubFolder([
            "mappings/pets.json":
                #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyFileName": "pets.json"}}"#,
            "__files/data/pets.json": StubReadersAgreeTests.petsBody,
        ])
        defer { folder.remove() }
        try folder.link("__files/pets.json", to: "data/pets.json")
        #expect(try StubLoader(root: folder.root).load().problems.isEmpty)
        let report = try verify(folder.root)
        #expect(report.errors.isEmpty)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.operations == ["GET /pets"])
    }

    @Test func anObjectFormMethodIsReadAsWrittenByBoth() throws {
        let folder = try TemporaryStubFolder([
            "mappings/pets.json":
                #"{"request": {"method": {"oneOf": ["GET", "HEAD"]}, "urlPath": "/api/pets"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": [{"firstName": "Rex", "lastName": "Hill", "vetId": "1"}]}}"#,
            "mappings/vets.json":
                #"{"request": {"method": {"noneOf": ["GET"]}, "urlPath": "/api/vets"}, "response": {"status": 500}}"#,
        ])
        defer { folder.remove() }
        let loaded = try StubLoader(root: folder.root).load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.mappings.map(\.request.methods) == [.oneOf([.get, .head]), .noneOf([.get])])
        #expect(loaded.mappings.allSatisfy { $0.request.method == nil })

        let report = try verify(folder.root)
        // The oneOf mapping is checked as GET /pets (not as ANY); its wrong vetId is found.
        #expect(report.operations == ["GET /pets"])
        #expect(report.findings.map(\.id.rawValue).contains("response-property-type-changed"))
        #expect(report.findings.allSatisfy { $0.url?.hasSuffix("pets.json: oneOf GET, HEAD /api/pets") == true })
        // The noneOf-GET mapping answers no GET: it is named as written and not checked as one.
        #expect(
            report.notes.contains {
                $0.hasSuffix(
                    "vets.json: noneOf GET /api/vets: skipped, it answers every method but GET, so no one operation applies"
                )
            })
    }

    @Test func theRepositoryStubsReadTheSameThroughBoth() throws {
        let root = StubReadersAgreeTests.repositoryStubs
        func withoutIDs(_ mappings: [StubMapping]) -> [StubMapping] {
            mappings.map { mapping in
                var mapping = mapping
                mapping.id = ""
                return mapping
            }
        }
        let read = try StubFolder(root: root).read()
        let loaded = try StubLoader(root: root).load()
        #expect(!read.mappings.isEmpty)
        #expect(withoutIDs(read.mappings.map(\.mapping)) == withoutIDs(loaded.mappings))
        #expect(read.problems.filter(\.isError) == loaded.problems.filter(\.isError))
    }

    /// The repository's `Stubs/` folder, found from this file.
    static let repositoryStubs: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Stubs"
    }()
}
