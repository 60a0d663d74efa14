import JSONKit
import PetModels
import TestSupport
import Testing

/// `petvet --format json`, run and decoded.
struct PetVetOutput {
    struct Dropped: Equatable {
        let index: Int
        let reason: String
    }

    let status: Int32
    let rows: [PetVetCellViewModel]
    let dropped: [Dropped]
    let requests: Int
    let stderr: String
    /// How long petvet ran, from launch to exit.
    let elapsed: Duration

    static func run(baseURL: String, extra: [String] = []) async throws -> PetVetOutput {
        let result = try await ToolProcess.run(
            "petvet", ["--base-url", baseURL, "--format", "json"] + extra, timeout: 60)
        #expect(!result.timedOut, "petvet hung")
        guard result.status == 0 else {
            return PetVetOutput(
                status: result.status, rows: [], dropped: [], requests: 0, stderr: result.stderr,
                elapsed: result.elapsed)
        }
        let json = try JSONValue(parsing: result.stdout)
        let rows = (json["rows"]?.arrayValue ?? []).map {
            PetVetCellViewModel(
                petName: $0["petName"]?.stringValue ?? "", vetNameAndTitle: $0["vetNameAndTitle"]?.stringValue ?? "")
        }
        let dropped = (json["dropped"]?.arrayValue ?? []).map {
            Dropped(index: Int($0["index"]?.intValue ?? -1), reason: $0["reason"]?.stringValue ?? "")
        }
        return PetVetOutput(
            status: result.status, rows: rows, dropped: dropped, requests: Int(json["requests"]?.intValue ?? -1),
            stderr: result.stderr, elapsed: result.elapsed)
    }
}

/// `petcontract verify ... --format json`, run and decoded.
struct ContractRun {
    struct Finding: Equatable {
        let id: String
        let level: String
        let operation: String
        let path: String
        let hint: String?
        var summary: String { "\(id) \(level) \(operation) \(path)" }
    }

    let status: Int32
    let findings: [Finding]
    let errors: [String]
    let operations: Int
    let stdout: String
    let stderr: String

    static func verify(_ arguments: [String]) async throws -> ContractRun {
        let result = try await ToolProcess.run(
            "petcontract", ["verify"] + arguments + ["--format", "json"], timeout: 90)
        #expect(!result.timedOut, "petcontract hung")
        let json = try? JSONValue(parsing: result.stdout)
        let findings = (json?["findings"]?.arrayValue ?? []).map {
            Finding(
                id: $0["id"]?.stringValue ?? "", level: $0["level"]?.stringValue ?? "",
                operation: $0["operation"]?.stringValue ?? "", path: $0["path"]?.stringValue ?? "",
                hint: $0["hint"]?.stringValue)
        }
        let errors = (json?["errors"]?.arrayValue ?? []).map { $0["message"]?.stringValue ?? "" }
        return ContractRun(
            status: result.status, findings: findings, errors: errors,
            operations: Int(json?["summary"]?["operations"]?.intValue ?? -1), stdout: result.stdout,
            stderr: result.stderr)
    }
}
