import Foundation
import TestSupport
import Testing

@testable import ArgumentKit
@testable import MockCLI

/// A file given as a source of its own (`--postman`, `--postman-environment`, `--openapi`) that is
/// also one of the `--stubs` folder's mapping files is refused, named, before anything is read:
/// otherwise the folder reads it a second time, as a broken mapping.
@Suite struct PetmockSourceOverlapTests {
    static let collection = "Tests/StubFormatTests/Fixtures/Postman/petstore.postman_collection.json"
    static let hello = #"{"request": {"url": "/hello"}, "response": {"body": "hi"}}"#

    static func folder() throws -> TemporaryDirectory {
        let text = try String(contentsOfFile: collection, encoding: .utf8)
        let folder = try TemporaryDirectory(
            prefix: "petkit-overlap",
            files: [
                "Stubs/mappings/hello.json": hello, "Stubs/mappings/pets/petstore.json": text,
                "Stubs/petstore.json": text, "Stubs/linked/petstore.json": text,
            ])
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("Stubs/mappings/linked.json"),
            withDestinationPath: folder.file("Stubs/linked/petstore.json"))
        return folder
    }

    @Test func aFileAmongTheMappingFilesIsRefusedByAnyPath() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let stubs = folder.file("Stubs")
        for path in [
            folder.file("Stubs/mappings/pets/petstore.json"),
            folder.file("Stubs/mappings/../mappings/pets/./petstore.json"),
            // A link in mappings/ makes the file it leads to (in the stub folder) a mapping file.
            folder.file("Stubs/linked/petstore.json"),
        ] {
            #expect(
                throws: ArgumentError.invalidValue(
                    option: "--postman", value: path,
                    expected: "a file outside '\(stubs)/mappings', whose JSON files are read as mappings "
                        + "(move it out, or leave out --stubs)")
            ) {
                try StubSources.checkNotInMappings([("--postman", path)], directory: stubs)
            }
        }
        #expect(throws: ArgumentError.self) {
            try StubSources.checkNotInMappings(
                [
                    ("--openapi", folder.file("Stubs/petstore.json")),
                    ("--postman-environment", folder.file("Stubs/mappings/hello.json")),
                ],
                directory: stubs)
        }
    }

    @Test func aFileBesideMappingsOrOfAnotherFolderIsAccepted() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        try StubSources.checkNotInMappings(
            [("--postman", folder.file("Stubs/petstore.json")), ("--openapi", Self.collection)],
            directory: folder.file("Stubs"))
        // A folder that cannot be listed is the loader's to report.
        try StubSources.checkNotInMappings([("--postman", Self.collection)], directory: folder.file("nowhere"))
    }

    @Test func serveAndVariantsRefuseACollectionInTheMappingsFolder() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let collection = folder.file("Stubs/mappings/pets/petstore.json")
        for command in [["serve", "--port", "0"], ["variants"]] {
            let result = try await ToolProcess.run(
                "petmock", command + ["--stubs", folder.file("Stubs"), "--postman", collection])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "petmock: error: The value '\(collection)' is invalid for '--postman': expected a file outside "
                        + "'\(folder.file("Stubs"))/mappings'"), "\(result.stderr)")
            #expect(!result.stderr.contains("missing field 'request'"), "\(result.stderr)")
        }
        // Beside mappings/, it is read once, as the collection.
        let text = try String(contentsOfFile: Self.collection, encoding: .utf8)
        let clean = try TemporaryDirectory(
            prefix: "petkit-overlap", files: ["Stubs/mappings/hello.json": Self.hello, "Stubs/petstore.json": text])
        defer { clean.remove() }
        let served = try await ServerProcess(
            "petmock",
            ["serve", "--stubs", clean.file("Stubs"), "--postman", clean.file("Stubs/petstore.json"), "--port", "0"])
        #expect(await served.stop() == 0)
        let log = served.finalErrorOutput()
        #expect(!log.contains("error:"), "\(log)")
        #expect(log.contains("serving 8 mappings from \(clean.file("Stubs")) and "), "\(log)")
    }
}
