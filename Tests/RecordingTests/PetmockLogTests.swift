import TestSupport
import Testing

/// petmock's own log lines (serving, recording, stopped) are diagnostics: they go to standard
/// error, and standard output carries results only.
@Suite struct PetmockLogTests {
    @Test func serveLogsOnStandardErrorAndPrintsNothingOnStandardOutput() async throws {
        let server = try await ServerProcess("petmock", ["serve", "--stubs", "Stubs", "--port", "0"])
        #expect(await server.stop() == 0)
        let output = server.finalOutput()
        let errors = server.finalErrorOutput()
        #expect(output.isEmpty, "\(output)")
        #expect(errors.hasPrefix("petmock: serving "), "\(errors)")
        #expect(errors.contains(" on \(server.url)\n"), "\(errors)")
        #expect(errors.hasSuffix("petmock: stopped\n"), "\(errors)")
    }

    @Test func recordLogsOnStandardErrorAndReportsOnStandardOutput() async throws {
        let closed = try ClosedPort()
        let folder = try TemporaryDirectory(prefix: "record-log")
        defer { folder.remove() }
        let recorder = try await ServerProcess(
            "petmock",
            [
                "record", "--target", "http://127.0.0.1:\(closed.port)", "--stubs", folder.file("Recorded"), "--port",
                "0",
            ])
        #expect(await recorder.interrupt() == 0, "\(recorder.errorOutput)")
        let output = recorder.finalOutput().joined(separator: "\n")
        let errors = recorder.finalErrorOutput()
        #expect(errors.hasPrefix("petmock: recording on \(recorder.url) "), "\(errors)")
        #expect(!output.contains("recording on"), "\(output)")
        #expect(output.contains("recorded 0 mappings"), "\(output)")
    }
}
