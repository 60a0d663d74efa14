import Foundation
import Platform

/// Runs a built tool to completion with a time limit, capturing its output.
///
/// The wait is asynchronous: the calling task is suspended, not a thread blocked, so tests
/// running in parallel on Swift's small cooperative pool keep going while a tool runs.
package enum ToolProcess {
    /// Runs `tool arguments...` from the repository root; kills it after `timeout` seconds.
    package static func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ToolResult {
        try await run(executable: try BuiltTools.path(of: tool), arguments, environment: environment, timeout: timeout)
    }

    /// Runs any program (`/usr/bin/script`, say) the same way.
    package static func run(
        executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ToolResult {
        let exit = ExitSignal()
        let launched = ContinuousClock.now
        let child = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            directory: BuiltTools.repositoryRoot.path, onExit: { _ in exit.signal() })
        let output = OutputCapture(child)
        let timer = DispatchWorkItem {
            if child.isRunning {
                exit.markTimedOut()
                child.terminate()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        await exit.wait()
        timer.cancel()
        let (stdout, stderr) = output.finish()
        return ToolResult(
            status: child.terminationStatus, stdout: stdout, stderr: stderr, timedOut: exit.timedOut,
            elapsed: exit.raisedAt.map { $0 - launched } ?? .zero)
    }
}

/// A one-shot signal a task can await, raised from any thread (before or after the wait).
final class ExitSignal: Sendable {
    private struct State {
        var raised = false
        var waiter: CheckedContinuation<Void, Never>?
        var didTimeOut = false
        var raisedInstant: ContinuousClock.Instant?
    }

    private let state = Locked(State())

    func signal() {
        let now = ContinuousClock.now
        let resume: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.raised = true
            state.raisedInstant = now
            defer { state.waiter = nil }
            return state.waiter
        }
        resume?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = state.withLock { state in
                if state.raised { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func markTimedOut() { state.withLock { $0.didTimeOut = true } }

    var timedOut: Bool { state.withLock { $0.didTimeOut } }

    /// When the signal was raised.
    var raisedAt: ContinuousClock.Instant? { state.withLock { $0.raisedInstant } }
}

/// Collects a process's stdout and stderr on background threads, so a full pipe never blocks it.
final class OutputCapture: @unchecked Sendable {
    // @unchecked Sendable: `out` and `err` are written only by their reader blocks and read
    // only after `group` says both readers are done.
    private let group = DispatchGroup()
    private var out = Data()
    private var err = Data()

    init(_ child: ChildProcess) {
        group.enter()
        group.enter()
        let outHandle = child.standardOutput
        let errHandle = child.standardError
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
