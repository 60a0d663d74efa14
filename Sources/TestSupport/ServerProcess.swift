import Foundation

/// A server tool (`petmock serve`, `petapi serve`) running as a child process on a free port.
///
/// Start it with `--port 0`; readiness is the first line it prints on standard output
/// (`petapi listening on http://127.0.0.1:40123/api`), else the first line on standard error that
/// names a URL (petmock's log line `petmock: serving 5 mappings from Stubs on http://127.0.0.1:40123`),
/// and the URL is read from that line. No sleeps: the wait is on that line. Every
/// wait (readiness, exit) suspends the task rather than blocking its thread, so tests running in
/// parallel on Swift's small pool keep going while a server starts or stops.
///
/// ```swift
/// let api = try await ServerProcess("petapi", ["serve", "--port", "0", "--db", path])
/// defer { api.terminate() }
/// let pets = api.url + "/api/pets"
/// ```
package final class ServerProcess: Sendable {
    /// The base URL, `http://127.0.0.1:PORT`, from the readiness line.
    package let url: String
    /// The port it listens on.
    package let port: Int
    private let process: ChildProcess
    private let log = OutputLog()

    /// Starts the built tool `tool arguments...` and waits (at most `timeout` seconds) for its
    /// readiness line. With `openFileLimit`, it runs under that many descriptors (`ulimit -n`,
    /// through a shell that execs the tool, so the process is still the tool's own).
    package convenience init(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], openFileLimit: Int? = nil,
        timeout: TimeInterval = 30
    ) async throws {
        let path = try BuiltTools.path(of: tool)
        var executable = path
        var argv = arguments
        if let openFileLimit {
            executable = "/bin/sh"
            argv = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", path] + arguments
        }
        try await self.init(
            executable: executable, argv, environment: environment, timeout: timeout, name: tool)
    }

    /// Starts any program (`/bin/sh`, say) the same way, from the repository root.
    package init(
        executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 30,
        name: String? = nil
    ) async throws {
        let process = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            directory: BuiltTools.repositoryRoot.path)
        self.process = process
        log.follow(out: process.standardOutput, err: process.standardError)
        let first = await log.readinessLine(within: timeout)
        guard let found = ServerProcess.baseURL(in: first) else {
            process.kill()
            throw ToolError.notReady(tool: name ?? executable, output: first + "\n" + log.errors)
        }
        url = found.url
        port = found.port
    }

    // Ends a server a test forgot, without waiting: the child's own thread reaps it.
    deinit { terminate() }

    /// Everything written to standard output so far.
    package var output: [String] { log.lines }

    /// Everything written to standard error so far.
    package var errorOutput: String { log.errors }

    /// Everything written to standard output, read to its end once the process has exited
    /// (waiting at most `timeout` seconds for the end); use after ``stop(grace:)``.
    package func finalOutput(within timeout: TimeInterval = 10) -> [String] {
        log.allLines(within: timeout)
    }

    /// Everything written to standard error, read to its end once the process has exited
    /// (waiting at most `timeout` seconds for the end); use after ``stop(grace:)``.
    package func finalErrorOutput(within timeout: TimeInterval = 10) -> String {
        log.allErrors(within: timeout)
    }

    /// The process's resident memory in kB (`VmRSS` in `/proc/PID/status`), or nil.
    package var residentKilobytes: Int? {
        let pid = process.processIdentifier
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }

    /// The files the process has mapped (`/proc/PID/maps`: its libraries, by path), or nil
    /// where there is no such file (not Linux) or the process has gone.
    package var mappedFiles: Set<String>? {
        let pid = process.processIdentifier
        // Read to the end: the file reports no size, and is longer than one read.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { return nil }
        defer { try? file.close() }
        guard let bytes = try? file.readToEnd() else { return nil }
        let maps = String(decoding: bytes, as: UTF8.self)
        // Each line: address, permissions, offset, device, inode, then the path (if any), the
        // first "/" of the line.
        let paths = maps.split(separator: "\n").compactMap { line in
            line.firstIndex(of: "/").map { String(line[$0...]) }
        }
        return Set(paths)
    }

    /// Whether the process is still running.
    package var isRunning: Bool { process.isRunning }

    /// Sends SIGTERM and returns at once (SIGKILL follows after `grace` seconds if it still
    /// runs): the end of a test that needs no exit status, `defer { server.terminate() }`.
    package func terminate(grace: TimeInterval = 10) {
        guard process.isRunning else { return }
        process.terminate()
        let process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { process.kill() }
    }

    /// Sends SIGTERM and waits for a graceful exit (SIGKILL after `grace` seconds); returns the
    /// status, or -1 when no exit was seen 30 seconds after the SIGKILL.
    @discardableResult
    package func stop(grace: TimeInterval = 10) async -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        return await wait(grace: grace)
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does, and waits for the exit (SIGKILL after
    /// `grace` seconds); returns the status.
    @discardableResult
    package func interrupt(grace: TimeInterval = 10) async -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.interrupt()
        return await wait(grace: grace)
    }

    /// Waits for the process to exit by itself, at most `timeout` seconds; returns its status,
    /// or nil when it still runs.
    package func exitStatus(within timeout: TimeInterval = 30) async -> Int32? {
        guard await process.exited(within: timeout) else { return nil }
        return process.terminationStatus
    }

    /// Kills the process with SIGKILL at once, as a crash or `kill -9` would, and waits for it
    /// to be reaped.
    package func kill9() async {
        guard process.isRunning else { return }
        process.kill()
        _ = await process.exited(within: 30)
    }

    private func wait(grace: TimeInterval) async -> Int32 {
        if await !process.exited(within: grace) {
            process.kill()
            // Bounded even now: a test must never wait forever on an exit.
            guard await process.exited(within: 30) else { return -1 }
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
    // @unchecked Sendable: `storedLines`, `ended`, `storedErrors` and `firstLineWaiters` are only touched
    // under `condition`.
    private let condition = NSCondition()
    private var storedLines: [String] = []
    private var ended = false
    private var storedErrors = Data()
    private var errorsEnded = false
    /// The first line on standard error that names a URL, if one has come.
    private var errorReadinessLine: String?
    /// Called once a readiness line has come or standard output has ended.
    private var firstLineWaiters: [@Sendable () -> Void] = []

    func follow(out: FileHandle, err: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = out.availableData
                condition.lock()
                if chunk.isEmpty {
                    ended = true
                    condition.broadcast()
                    let waiters = takeFirstLineWaiters()
                    condition.unlock()
                    waiters.forEach { $0() }
                    return
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    storedLines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                condition.broadcast()
                let waiters = storedLines.isEmpty ? [] : takeFirstLineWaiters()
                condition.unlock()
                waiters.forEach { $0() }
            }
        }
        Thread.detachNewThread { [self] in
            var pending = Data()
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
                var waiters: [@Sendable () -> Void] = []
                if errorReadinessLine == nil {
                    pending.append(chunk)
                    while errorReadinessLine == nil, let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if ServerProcess.baseURL(in: line) != nil { errorReadinessLine = line }
                    }
                    if errorReadinessLine != nil {
                        pending = Data()
                        waiters = takeFirstLineWaiters()
                    }
                }
                condition.unlock()
                waiters.forEach { $0() }
            }
        }
    }

    /// The readiness line: the first line of standard output, else the first line of standard
    /// error that names a URL, waiting (suspended) up to `timeout` seconds; empty when none came.
    func readinessLine(within timeout: TimeInterval) async -> String {
        _ = await SuspendedWait.until(timeout: timeout) { done in whenReadinessLine(done) }
        return readinessLineSoFar
    }

    /// The readiness line if it has come, else empty.
    private var readinessLineSoFar: String {
        condition.lock()
        defer { condition.unlock() }
        return storedLines.first ?? errorReadinessLine ?? ""
    }

    /// Calls `done` once a readiness line has come or standard output has ended (at once if so).
    private func whenReadinessLine(_ done: @escaping @Sendable () -> Void) {
        condition.lock()
        let now = !storedLines.isEmpty || errorReadinessLine != nil || ended
        if !now { firstLineWaiters.append(done) }
        condition.unlock()
        if now { done() }
    }

    /// The waiters for a first line, taken; called with `condition` locked.
    private func takeFirstLineWaiters() -> [@Sendable () -> Void] {
        defer { firstLineWaiters = [] }
        return firstLineWaiters
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
