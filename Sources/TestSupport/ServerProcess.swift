import Foundation

/// A server tool (`petmock serve`, `petapi serve`) running as a child process on a free port.
///
/// Start it with `--port 0`; readiness is the first line it prints, which names its URL
/// (`petapi listening on http://127.0.0.1:40123/api`). No sleeps: the wait is on that line.
///
/// ```swift
/// let api = try ServerProcess("petapi", ["serve", "--port", "0", "--db", path])
/// defer { api.stop() }
/// let pets = api.url + "/api/pets"
/// ```
public final class ServerProcess: Sendable {
    /// The base URL, `http://127.0.0.1:PORT`, from the readiness line.
    public let url: String
    /// The port it listens on.
    public let port: Int
    private let process: ChildProcess
    private let log = OutputLog()

    /// Starts `tool arguments...` and waits (at most `timeout` seconds) for its readiness line.
    /// With `openFileLimit`, it runs under that many descriptors (`ulimit -n`, through a shell
    /// that execs the tool, so the process is still the tool's own).
    public init(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], openFileLimit: Int? = nil,
        timeout: TimeInterval = 30
    ) throws {
        let path = try BuiltTools.path(of: tool)
        var executable = path
        var argv = arguments
        if let openFileLimit {
            executable = "/bin/sh"
            argv = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", path] + arguments
        }
        let process = try ChildProcess(
            executable: executable, arguments: argv,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            directory: BuiltTools.repositoryRoot.path)
        self.process = process
        log.follow(out: process.standardOutput, err: process.standardError)
        let first = log.firstLine(within: timeout)
        guard let found = ServerProcess.baseURL(in: first) else {
            process.terminate()
            throw ToolError.notReady(tool: tool, output: first + "\n" + log.errors)
        }
        url = found.url
        port = found.port
    }

    deinit { stop() }

    /// Everything written to standard output so far.
    public var output: [String] { log.lines }

    /// Everything written to standard error so far.
    public var errorOutput: String { log.errors }

    /// Everything written to standard output, read to its end once the process has exited
    /// (waiting at most `timeout` seconds for the end); use after ``stop(grace:)``.
    public func finalOutput(within timeout: TimeInterval = 10) -> [String] {
        log.allLines(within: timeout)
    }

    /// Everything written to standard error, read to its end once the process has exited
    /// (waiting at most `timeout` seconds for the end); use after ``stop(grace:)``.
    public func finalErrorOutput(within timeout: TimeInterval = 10) -> String {
        log.allErrors(within: timeout)
    }

    /// The process's resident memory in kB (`VmRSS` in `/proc/PID/status`), or nil.
    public var residentKilobytes: Int? {
        let pid = process.processIdentifier
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM and waits for a graceful exit (SIGKILL after `grace` seconds); returns the
    /// status, or -1 when no exit was seen 30 seconds after the SIGKILL.
    @discardableResult
    public func stop(grace: TimeInterval = 10) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        return wait(grace: grace)
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does, and waits for the exit (SIGKILL after
    /// `grace` seconds); returns the status.
    @discardableResult
    public func interrupt(grace: TimeInterval = 10) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.interrupt()
        return wait(grace: grace)
    }

    /// Kills the process with SIGKILL at once, as a crash or `kill -9` would.
    public func kill9() {
        guard process.isRunning else { return }
        process.kill()
        process.waitUntilExit()
    }

    private func wait(grace: TimeInterval) -> Int32 {
        if !process.waitUntilExit(timeout: grace) {
            process.kill()
            // Bounded even now: a test must never wait forever on an exit.
            guard process.waitUntilExit(timeout: 30) else { return -1 }
        }
        return process.terminationStatus
    }

    /// The first `http://host:port` in a line.
    static func baseURL(in line: String) -> (url: String, port: Int)? {
        guard let start = line.range(of: "http://") else { return nil }
        let rest = line[start.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != " " && $0 != ")" && $0 != "," }
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...])
        else { return nil }
        return ("http://" + authority, port)
    }
}

/// A child's output, gathered line by line on background threads.
final class OutputLog: @unchecked Sendable {
    // @unchecked Sendable: `storedLines`, `ended` and `storedErrors` are only touched under `condition`.
    private let condition = NSCondition()
    private var storedLines: [String] = []
    private var ended = false
    private var storedErrors = Data()
    private var errorsEnded = false

    func follow(out: FileHandle, err: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = out.availableData
                condition.lock()
                if chunk.isEmpty {
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    storedLines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        Thread.detachNewThread { [self] in
            while true {
                let chunk = err.availableData
                condition.lock()
                if chunk.isEmpty {
                    errorsEnded = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                storedErrors.append(chunk)
                condition.unlock()
            }
        }
    }

    /// The first line of output, waiting up to `timeout` seconds; empty when none came.
    func firstLine(within timeout: TimeInterval) -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while storedLines.isEmpty && !ended && condition.wait(until: deadline) {}
        return storedLines.first ?? ""
    }

    /// Every line, once standard output has ended (or `timeout` seconds have passed).
    func allLines(within timeout: TimeInterval) -> [String] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ended && condition.wait(until: deadline) {}
        return storedLines
    }

    /// All of standard error, once it has ended (or `timeout` seconds have passed).
    func allErrors(within timeout: TimeInterval) -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !errorsEnded && condition.wait(until: deadline) {}
        return String(decoding: storedErrors, as: UTF8.self)
    }

    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return storedLines
    }

    var errors: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: storedErrors, as: UTF8.self)
    }
}
