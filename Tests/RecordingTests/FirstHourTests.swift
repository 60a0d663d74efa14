import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import StubServer
import TestSupport
import Testing

/// Issue 14, "a new user's first hour": the recorder's rough edges, with the real binaries.
@Suite(.serialized) struct FirstHourTests {
    /// Recording into a folder whose hand-written stub answers the same request: the summary
    /// (and `validate`) says the recording never answers, naming both files.
    @Test func aRecordingHiddenByAHandWrittenStubIsReported() async throws {
        let api = try PetAPIUpstream()
        let folder = try TemporaryDirectory(prefix: "record-shadow")
        defer {
            api.stop()
            folder.remove()
        }
        let stubs = folder.file("Stubs")
        try writeText(
            stubs + "/mappings/pets.json", try readText(BuiltTools.repositoryRoot.path + "/Stubs/mappings/pets.json"))
        let recorder = try ServerProcess(
            "petmock", ["record", "--target", api.baseURL, "--stubs", stubs, "--port", "0", "--no-verify"])
        let pets = try await TestClient().get(recorder.url + "/api/pets")
        #expect(pets.status == .ok)
        #expect(recorder.interrupt() == 0, "\(recorder.errorOutput)")
        let output = recorder.finalOutput().joined(separator: "\n")
        let warning =
            "\(stubs)/mappings/get-api-pets.json: warning: $.request: never answers: \(stubs)/mappings/pets.json "
            + "($.mappings[0]) matches every request this one does and takes precedence (priority 5, newer)"
        #expect(output.contains(warning), "\(output)")
        let validate = try await ToolProcess.run("petmock", ["validate", "--stubs", stubs])
        #expect(validate.status == 0 && validate.stdout.contains(warning), "\(validate.stdout)")
        #expect(validate.stdout.contains("0 errors, 1 warning"))
    }
}
