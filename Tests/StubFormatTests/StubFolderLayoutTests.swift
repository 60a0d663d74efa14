import Foundation
import StubFormat
import Testing

/// A stub folder that holds no mapping where WireMock reads them (`mappings/`): the reader
/// says so, whichever way the folder is laid out.
@Suite struct StubFolderLayoutTests {
    /// A stub root holding `files` (paths relative to it) and nothing else.
    static func folder(_ files: [String], folders: [String] = []) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for folder in folders {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in files {
            try Data(#"{"request": {"url": "/x"}, "response": {}}"#.utf8).write(
                to: URL(fileURLWithPath: root + "/" + file))
        }
        return root
    }

    @Test(arguments: [
        (
            files: ["a.json", "b.json", "c.json"], folders: [String](),
            expected: "has 3 JSON files but no mappings/ folder"
        ),
        (files: [], folders: [], expected: "has no mappings/ folder"),
        (files: [], folders: ["mappings"], expected: "mappings/ holds no mapping files"),
        (files: ["a.json"], folders: ["mappings"], expected: "mappings/ holds no mapping files, but"),
    ])
    func aFolderWithoutMappingsSaysWhy(files: [String], folders: [String], expected: String) throws {
        let root = try Self.folder(files, folders: folders)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let problems = try StubFolder(root: root).read().problems
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.severity == .warning)
        #expect(problem.description.contains(expected), "\(problem)")
        #expect(!problem.description.contains(": : "), "\(problem)")
    }

    @Test func filesInTheRootAreNamedWithWhereToMoveThem() throws {
        let root = try Self.folder(["a.json", "b.json", "c.json", ".hidden.json", "notes.txt"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let problem = try #require(try StubFolder(root: root).read().problems.first)
        #expect(
            problem.message
                == "\(root) has 3 JSON files but no mappings/ folder: WireMock reads mappings from "
                + "\(root)/mappings/ — move them there")
    }

    @Test func aFolderWithMappingsHasNoSuchProblem() throws {
        let root = try Self.folder(["mappings/a.json", "package.json"], folders: ["mappings"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try StubFolder(root: root).read().problems.isEmpty)
    }
}
