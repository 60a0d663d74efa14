import Foundation
import TestSupport
import Testing

/// Runs the built `petcontract` executable as a subprocess, with a time limit, and captures
/// its exit code and output.
struct PetContractProcess {
    typealias Result = ToolResult

    static let repositoryRoot = BuiltTools.repositoryRoot

    /// Runs `petcontract arguments...` from the repository root, killed after `timeout` seconds.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> Result {
        let result = try await ToolProcess.run("petcontract", arguments, environment: environment, timeout: timeout)
        #expect(!result.timedOut, "petcontract \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        return result
    }

    /// A temporary folder holding the given files (relative paths), removed by the caller.
    static func folder(_ files: [String: String]) throws -> TemporaryDirectory {
        try TemporaryDirectory(prefix: "petcontract-fixture", files: files)
    }
}
