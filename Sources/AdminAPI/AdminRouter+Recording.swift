import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

extension AdminRouter {
    /// `GET /__admin/recordings/status`: `{"status": "Recording"}` (WireMock's shapes here).
    func recordingStatus() -> HTTPResponse {
        Self.json(["status": .string(admin.recordingStatus.rawValue)])
    }

    /// `POST /__admin/recordings/start`, with a specification (or none).
    func startRecording(_ body: [UInt8]) -> HTTPResponse {
        withSpecification(body, defaults: RecordingConfiguration(repeatsAsScenarios: true)) {
            (spec) throws(AdminError) -> JSONValue in
            try admin.startRecording(spec.configuration, outputIDs: spec.outputIDs)
            return Self.withWarnings([:], spec.warnings + persistWarning(spec))
        }
    }

    /// `POST /__admin/recordings/stop`: `{"mappings": [...]}`, or `{"ids": [...]}` when the
    /// start asked for `outputFormat: "IDS"`.
    func stopRecording() -> HTTPResponse {
        do {
            let stopped = try admin.finishRecording()
            return Self.json(Self.result(stopped.result, ids: stopped.outputIDs))
        } catch {
            return Self.failure(error)
        }
    }

    /// `POST /__admin/recordings/snapshot`: the journal as mappings, as the specification says.
    func snapshotRecording(_ body: [UInt8]) -> HTTPResponse {
        withSpecification(body, defaults: RecordingConfiguration(repeatsAsScenarios: true)) {
            (spec) throws(AdminError) -> JSONValue in
            let result = try admin.snapshotRecording(spec.configuration)
            return Self.withWarnings(Self.result(result, ids: spec.outputIDs), spec.warnings + persistWarning(spec))
        }
    }

    func withSpecification(
        _ body: [UInt8], defaults: RecordingConfiguration,
        _ action: (RecordingSpecification) throws(AdminError) -> JSONValue
    ) -> HTTPResponse {
        let json: JSONValue
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            json = .object([:])
        } else {
            switch Self.parse(body) {
            case .failure(let failure): return failure.response
            case .success(let parsed): json = parsed
            }
        }
        do throws(AdminError) {
            let spec: RecordingSpecification
            do {
                spec = try RecordingSpecification(json: json, defaults: defaults)
            } catch {
                throw .recording(error)
            }
            return Self.json(try action(spec))
        } catch {
            return Self.failure(error)
        }
    }

    /// A warning when files were asked for and the server has no stub folder to write them to.
    func persistWarning(_ spec: RecordingSpecification) -> [String] {
        guard spec.configuration.persist, admin.engine.store.loader == nil else { return [] }
        return ["$.persist: the server has no stub folder; the mappings are kept in memory only"]
    }

    /// WireMock's snapshot result: the mappings, or their ids.
    static func result(_ result: RecordingResult, ids: Bool) -> JSONValue {
        if ids { return ["ids": .array(result.mappings.map { .string($0.id) })] }
        return ["mappings": .array(result.mappings.map(\.json))]
    }

    static func withWarnings(_ value: JSONValue, _ warnings: [String]) -> JSONValue {
        guard !warnings.isEmpty, case .object(var object) = value else { return value }
        object["warnings"] = .array(warnings.map(JSONValue.string))
        return .object(object)
    }
}
