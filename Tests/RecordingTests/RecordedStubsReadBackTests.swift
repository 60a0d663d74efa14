import Foundation
import HTTPCore
import MockEngine
import StubFormat
import StubServerKit
import TestSupport
import Testing

/// What recording writes is what the stub format reads: the recorder writes through
/// ``StubMapping``'s JSON, and ``StubFolder`` (petmock's and `petcontract verify --stub`'s
/// reader) reads the same mappings back, with body files under the one body-file rule.
@Suite struct RecordedStubsReadBackTests {
    static func exchange(_ url: String, type: String, body: [UInt8]) -> RecordedExchange {
        RecordedExchange(
            method: .get, url: url, headers: HTTPHeaders(), body: [],
            upstream: UpstreamResult(
                url: "http://api" + url,
                outcome: .success(HTTPClientResponse(status: .ok, headers: ["Content-Type": type], body: body)),
                duration: .zero))
    }

    @Test func recordedMappingsAndBodyFilesReadBackAsWritten() throws {
        let temporary = try TemporaryDirectory(prefix: "recorded")
        defer { temporary.remove() }
        // Not made yet: the recorder makes the folder at its first write.
        let root = temporary.file("stubs")
        let binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]
        let recorder = try Recorder(configuration: RecordingConfiguration(), stubsDirectory: root)
        _ = recorder.record(Self.exchange("/api/pets", type: "application/json", body: Array(#"[{"a":1}]"#.utf8)))
        _ = recorder.record(Self.exchange("/logo.png", type: "image/png", body: binary))
        let result = recorder.finish()
        #expect(result.mappingFiles.count == 2 && result.bodyFiles.count == 1)

        let folder = StubFolder(root: root)
        let contents = try folder.read()
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.mappings.map(\.mapping.id).sorted() == result.mappings.map(\.id).sorted())
        let logo = try #require(contents.mappings.first { $0.mapping.request.url == .url("/logo.png") })
        guard case .file = logo.mapping.response.body else {
            Issue.record("the binary body is not in __files/: \(logo.mapping.response.body)")
            return
        }
        #expect(try folder.body(of: logo).get() == binary)
        let loaded = try StubLoader(root: root).load()
        #expect(loaded.problems.isEmpty && loaded.mappings.count == 2)
    }
}
