import HTTPCore
import HTTPServerKit
import MockEngine
import Platform
import StubServerKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nothing lost: hand-written mappings, other recordings, links and folders outside the stub
/// folder are never written over; earlier recordings of the same request are refreshed.
@Suite struct CollisionTests {
    static let handWritten = """
        {"request": {"method": "GET", "url": "/api/pets"}, "response": {"status": 200, "jsonBody": [{"firstName": "Hand"}]}}

        """

    /// Records `paths` from the Pet API into `root` and returns the result.
    static func record(_ paths: [String], from api: PetAPIUpstream, into root: String) async throws -> RecordingResult {
        let recorder = try Recorder(configuration: RecordingConfiguration(), stubsDirectory: root)
        let transport = RecordingTransport(wrapping: TestClient().transport, recorder: recorder)
        for path in paths { _ = try await transport.send(HTTPClientRequest(url: api.baseURL + path)) }
        return recorder.finish()
    }

    @Test func aHandWrittenMappingIsKeptAndAReRecordingRefreshesItsOwnFile() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "collision")
        defer {
            api.stop()
            stubs.remove()
        }
        try writeText(stubs.file("mappings/get-api-pets.json"), Self.handWritten)
        let first = try await Self.record(["/api/pets"], from: api, into: stubs.path)
        #expect(
            first.collisions == [
                RecordingCollision(
                    wanted: stubs.file("mappings/get-api-pets.json"), occupant: "a hand-written mapping",
                    writtenTo: stubs.file("mappings/get-api-pets-2.json"))
            ])
        #expect(try readText(stubs.file("mappings/get-api-pets.json")) == Self.handWritten)
        let recorded = try readText(stubs.file("mappings/get-api-pets-2.json"))

        let second = try await Self.record(["/api/pets"], from: api, into: stubs.path)
        #expect(second.mappingFiles == [stubs.file("mappings/get-api-pets-2.json")], "refreshed in place")
        #expect(second.collisions.isEmpty)
        #expect(try readText(stubs.file("mappings/get-api-pets-2.json")) == recorded, "same request, same file")
        #expect(try mappingFileNames(stubs.path).sorted() == ["get-api-pets-2.json", "get-api-pets.json"])
        // No duplicate ids; the two mappings for the same request are reported as such.
        #expect(try StubLoader(root: stubs.path).load().problems.allSatisfy { $0.kind == .neverAnswers })
    }

    @Test func aCopiedRecordingKeepsItsIdAndTheNewOneTakesAnother() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "copied-id")
        defer {
            api.stop()
            stubs.remove()
        }
        let first = try await Self.record(["/api/vets/1"], from: api, into: stubs.path)
        let id = try #require(first.mappings.first?.id)
        // A person copies the recording into a hand-written file (no recording mark) and
        // deletes the original.
        let copied = try readText(stubs.file("mappings/get-api-vets-1.json")).replacing(
            "\"recorded\": true", with: "\"recorded\": false")
        try writeText(stubs.file("mappings/vet-one.json"), copied)
        try FileSystem.remove(stubs.file("mappings/get-api-vets-1.json"))

        let second = try await Self.record(["/api/vets/1"], from: api, into: stubs.path)
        #expect(second.mappings.first?.id != id)
        #expect(second.collisions.map(\.occupant) == ["a mapping using the id \(id)"])
        #expect(try readText(stubs.file("mappings/vet-one.json")) == copied)
        // No duplicate ids; the two mappings for the same request are reported as such.
        #expect(try StubLoader(root: stubs.path).load().problems.allSatisfy { $0.kind == .neverAnswers })
    }

    @Test func aSymbolicLinkIsNeverWrittenThrough() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "links")
        let outside = try TemporaryDirectory(prefix: "outside")
        defer {
            api.stop()
            stubs.remove()
            outside.remove()
        }
        try writeText(outside.file("precious.json"), "precious\n")
        try FileSystem.createDirectory(stubs.file("mappings"))
        #expect(symlink(outside.file("precious.json"), stubs.file("mappings/get-api-vets-2.json")) == 0)
        let result = try await Self.record(["/api/vets/2"], from: api, into: stubs.path)
        #expect(result.collisions.map(\.occupant) == ["a symbolic link"])
        #expect(result.mappingFiles == [stubs.file("mappings/get-api-vets-2-2.json")])
        #expect(try readText(outside.file("precious.json")) == "precious\n")
    }

    @Test(arguments: ["mappings", "__files"])
    func aFolderLeadingOutsideIsRefused(_ folder: String) throws {
        let stubs = try TemporaryDirectory(prefix: "escape")
        let outside = try TemporaryDirectory(prefix: "outside")
        defer {
            stubs.remove()
            outside.remove()
        }
        #expect(symlink(outside.path, stubs.file(folder)) == 0)
        #expect {
            try Recorder(configuration: RecordingConfiguration(), stubsDirectory: stubs.path)
        } throws: { error in
            guard case RecordingError.unsafeStubFolder(let path, _)? = error as? RecordingError else { return false }
            return path == stubs.file(folder)
        }
    }

    @Test func aFailedWriteIsKeptAndWrittenWhenRecordingStops() async throws {
        let api = try PetAPIUpstream()
        let stubs = try TemporaryDirectory(prefix: "write-failure")
        defer {
            api.stop()
            stubs.remove()
        }
        let recorder = try Recorder(configuration: RecordingConfiguration(), stubsDirectory: stubs.path)
        // mappings/ is made at the first write, not before; a file stands in its place, then
        // the folder comes back.
        #expect(FileSystem.kind(of: stubs.file("mappings")) == nil)
        try writeText(stubs.file("mappings"), "not a folder")
        let transport = RecordingTransport(wrapping: TestClient().transport, recorder: recorder)
        _ = try await transport.send(HTTPClientRequest(url: api.baseURL + "/api/pets"))
        #expect(recorder.mappings.count == 1)
        try FileSystem.remove(stubs.file("mappings"))
        try FileSystem.createDirectory(stubs.file("mappings"))
        let result = recorder.finish()
        #expect(result.unwrittenFiles.isEmpty)
        #expect(try mappingFileNames(stubs.path) == ["get-api-pets.json"])
    }
}
