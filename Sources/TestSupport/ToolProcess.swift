import Foundation

/// Runs a built tool to completion with a time limit, capturing its output.
///
/// The wait is asynchronous: the calling task is suspended, not a thread blocked, so tests
/// running in parallel on Swift's small cooperative pool keep going while a tool runs.
public enum ToolProcess {
    /// Runs `tool arguments...` from the repository root; kills it after `timeout` seconds.
    public static func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ToolResult {
        try await run(executable: try BuiltTools.path(of: tool), arguments, environment: environment, timeout: timeout)
    }

    /// Runs any program (`/usr/bin/script`, say) the same way.
    public static func run(
        executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = BuiltTools.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let exit = ExitSignal()
        process.terminationHandler = { _ in exit.signal() }
        let launched = ContinuousClock.now
        let output = try ProcessLaunch.withLock {
            let output = OutputCapture(process)
            try process.run()
            return output
        }
        let box = ProcessBox(process)
        let timer = DispatchWorkItem {
            if box.value.isRunning {
                exit.markTimedOut()
                box.value.terminate()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        await exit.wait()
        timer.cancel()
        let (stdout, stderr) = output.finish()
        return ToolResult(
            status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: exit.timedOut,
            elapsed: exit.raisedAt.map { $0 - launched } ?? .zero)
    }
}

/// A one-shot signal a task can await, raised from any thread (before or after the wait).
final class ExitSignal: @unchecked Sendable {
    // @unchecked Sendable: `raised`, `waiter` and `didTimeOut` are only touched under `lock`.
    private let lock = NSLock()
    private var raised = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var didTimeOut = false
    private var raisedInstant: ContinuousClock.Instant?

    func signal() {
        let now = ContinuousClock.now
        let resume: CheckedContinuation<Void, Never>? = lock.withLock {
            raised = true
            raisedInstant = now
            defer { waiter = nil }
            return waiter
        }
        resume?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if raised { return true }
                waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func markTimedOut() { lock.withLock { didTimeOut = true } }

    var timedOut: Bool { lock.withLock { didTimeOut } }

    /// When the signal was raised.
    var raisedAt: ContinuousClock.Instant? { lock.withLock { raisedInstant } }
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
