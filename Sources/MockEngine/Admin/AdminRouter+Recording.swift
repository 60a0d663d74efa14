import HTTPCore
import HTTPHandlerKit
import JSONKit

extension AdminRouter {
    /// `/__admin/recordings/start|stop|status|snapshot`, WireMock's shapes: start and
    /// snapshot take a specification; stop and snapshot answer `{"mappings": [...]}` (or
    /// `{"ids": [...]}` with `outputFormat: "IDS"`); status answers `{"status": "Recording"}`.
    func recordings(_ method: HTTPMethod, _ segments: [String], body: [UInt8]) -> HTTPResponse {
        switch (method, segments.dropFirst().first ?? "") {
        case (.get, "status") where segments.count == 2:
            return Self.json(["status": .string(admin.recordingStatus.rawValue)])
        case (.post, "start") where segments.count == 2:
            return withSpecification(body, defaults: RecordingConfiguration(repeatsAsScenarios: true)) {
                (spec) throws(AdminError) -> JSONValue in
                try admin.startRecording(spec.configuration, outputIDs: spec.outputIDs)
                return Self.withWarnings([:], spec.warnings + persistWarning(spec))
            }
        case (.post, "stop") where segments.count == 2:
            do {
                let stopped = try admin.finishRecording()
                return Self.json(Self.result(stopped.result, ids: stopped.outputIDs))
            } catch {
                return Self.failure(error)
            }
        case (.post, "snapshot") where segments.count == 2:
            return withSpecification(body, defaults: RecordingConfiguration(repeatsAsScenarios: true)) {
                (spec) throws(AdminError) -> JSONValue in
                let result = try admin.snapshotRecording(spec.configuration)
                return Self.withWarnings(Self.result(result, ids: spec.outputIDs), spec.warnings + persistWarning(spec))
            }
        default:
            return Self.notFound(
                "No admin route \(method) \(Self.prefix)/\(segments.joined(separator: "/")); recordings has "
                    + "POST start, POST stop, GET status and POST snapshot")
        }
    }

    private func withSpecification(
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
    private func persistWarning(_ spec: RecordingSpecification) -> [String] {
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
