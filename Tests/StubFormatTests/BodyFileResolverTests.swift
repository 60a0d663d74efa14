import Foundation
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

    /// A resolver that keeps the folder's real path (a server's, per request) answers every
    /// name as one finding it per name does; once the folder leads elsewhere, its names are
    /// refused as outside, never followed there.
    @Test func keepingTheFoldersRealPathChangesNoAnswerAndFollowsNoMove() throws {
        let folder = try TemporaryStubFolder([
            "real/pets.json": "[1]", "real/data/vets.json": "[2]", "other/pets.json": "[9]", "secret.json": "S",
        ])
        defer { folder.remove() }
        try folder.link("files", to: "real")
        try folder.link("real/outside.json", to: "../secret.json")
        let kept = BodyFileResolver(keepingRealPathOf: folder.root + "/files")
        let fresh = BodyFileResolver(filesRoot: folder.root + "/files")
        let names = [
            "pets.json", "/pets.json", "data/vets.json", "outside.json", "../secret.json", "missing.json", "data",
        ]
        for name in names {
            #expect(kept.resolve(name) == fresh.resolve(name), "\(name)")
            // The stamped form finds the same path, or fails the same way, with one `stat`.
            let stamped = kept.resolveStamped(name)
            #expect(stamped.map(\.path) == kept.resolve(name), "\(name)")
            if case .success(let found) = stamped { #expect(found.stamp.isRegularFile && found.stamp.size == 3) }
        }
        #expect(try kept.resolve("pets.json").get().hasSuffix("/real/pets.json"))
        try FileManager.default.removeItem(atPath: folder.root + "/files")
        try folder.link("files", to: "other")
        #expect(try fresh.resolve("pets.json").get().hasSuffix("/other/pets.json"))
        guard case .failure(.outsideRoot(let resolved?)) = kept.resolve("pets.json") else {
            Issue.record("a name under the moved folder is not refused")
            return
        }
        #expect(resolved.hasSuffix("/other/pets.json"))
        let missing = BodyFileResolver(keepingRealPathOf: folder.root + "/nothing")
        #expect(missing.resolve("pets.json") == .failure(.rootMissing))
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
