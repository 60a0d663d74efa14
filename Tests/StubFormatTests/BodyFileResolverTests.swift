import StubFormat
import Testing

/// The one body-file rule: a `bodyFileName`'s real path stays inside `__files/`.
@Suite struct BodyFileResolverTests {
    @Test func theRuleCaseByCase() throws {
        let folder = try TemporaryStubFolder([
            "__files/pets.json": "[1]",
            "__files/data/vets.json": "[2]",
            "secret.json": "SECRET",
        ])
        defer { folder.remove() }
        try folder.link("__files/inside.json", to: "data/vets.json")
        try folder.link("__files/outside.json", to: "../secret.json")
        try folder.link("__files/data/up", to: "..")
        let resolver = BodyFileResolver(filesRoot: folder.root + "/__files")
        func read(_ name: String) -> Result<[UInt8], StubProblem> {
            resolver.read(name, file: "m.json", path: "$.response.bodyFileName")
        }
        #expect(try read("pets.json").get() == Array("[1]".utf8))
        #expect(try read("/pets.json").get() == Array("[1]".utf8), "a leading slash names the same file")
        #expect(try read("inside.json").get() == Array("[2]".utf8), "a link that stays inside is followed")
        #expect(try read("data/up/pets.json").get() == Array("[1]".utf8), "so is a folder link that stays inside")
        #expect(resolver.resolve("../secret.json") == .failure(.outsideRoot(resolved: nil)), "refused by the name")
        #expect(resolver.resolve("data/../../secret.json") == .failure(.outsideRoot(resolved: nil)))
        guard case .failure(.outsideRoot(let resolved?)) = resolver.resolve("outside.json") else {
            Issue.record("a link leading out of __files/ is not refused")
            return
        }
        #expect(resolved.hasSuffix("/secret.json"))
        #expect(resolver.resolve("missing.json") == .failure(.notFound))
        #expect(resolver.resolve("data") == .failure(.notFound), "a folder is no body file")
        #expect(BodyFileResolver(filesRoot: folder.root + "/nothing").resolve("pets.json") == .failure(.rootMissing))
        let problem = try #require(read("outside.json").failure)
        #expect(problem.kind == .bodyFileOutsideRoot && problem.isError)
        #expect(
            problem.description.hasPrefix("m.json: error: $.response.bodyFileName: expected a file inside __files/"))
    }

    @Test func inlineBodiesNeedNoFolder() throws {
        #expect(try ResponseBody.text("hi").contents(filesRoot: nil, file: "", path: "$").get() == Array("hi".utf8))
        #expect(
            try ResponseBody.json(["a": 1]).contents(filesRoot: nil, file: "", path: "$").get()
                == Array(#"{"a":1}"#.utf8))
        let problem = try #require(ResponseBody.file("x.json").contents(filesRoot: nil, file: "f", path: "$").failure)
        #expect(problem.kind == .bodyFileUnreadable && problem.found == "mappings given without one")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
