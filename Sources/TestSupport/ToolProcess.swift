import Foundation

/// Runs a built tool to completion with a time limit, capturing its output.
public enum ToolProcess {
    /// Runs `tool arguments...` from the repository root; kills it after `timeout` seconds.
    public static func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltTools.path(of: tool))
        process.arguments = arguments
        process.currentDirectoryURL = BuiltTools.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = OutputCapture(process)
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            process.waitUntilExit()
            finished.signal()
        }
        let timedOut = finished.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            process.terminate()
            finished.wait()
        }
        let (stdout, stderr) = output.finish()
        return ToolResult(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }
}

/// Collects a process's stdout and stderr on background threads, so a full pipe never blocks it.
final class OutputCapture: @unchecked Sendable {
    // @unchecked Sendable: `out` and `err` are written only by their reader blocks and read
    // only after `group` says both readers are done.
    private let group = DispatchGroup()
    private var out = Data()
    private var err = Data()
    let outPipe = Pipe()
    let errPipe = Pipe()

    init(_ process: Process) {
        process.standardOutput = outPipe
        process.standardError = errPipe
        group.enter()
        group.enter()
        let outHandle = outPipe.fileHandleForReading
        let errHandle = errPipe.fileHandleForReading
        DispatchQueue.global().async {
            self.out = outHandle.readDataToEndOfFile()
            self.group.leave()
        }
        DispatchQueue.global().async {
            self.err = errHandle.readDataToEndOfFile()
            self.group.leave()
        }
    }

    func finish() -> (String, String) {
        group.wait()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
