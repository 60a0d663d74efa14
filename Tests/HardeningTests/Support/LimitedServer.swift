import Foundation
import TestSupport

/// A built server tool (`petapi serve`, `petmock serve`) run on a free port, optionally under a
/// lower open-file limit (`ulimit -n`); ready once it prints its URL (no sleeps). Its process
/// id is the server's own (the shell execs it), for reading `/proc/PID`.
final class LimitedServer {
    let process: Process
    let port: Int
    private let output: Pipe

    /// Starts the tool; with `errorFile`, its standard error goes to that file (complete once
    /// ``stop()`` returns), else nowhere.
    init(
        _ tool: String, _ arguments: [String], openFileLimit: Int? = nil, errorFile: String? = nil,
        timeout: TimeInterval = 30
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let shell = (openFileLimit.map { "ulimit -n \($0) && " } ?? "") + "exec \"$0\" \"$@\""
        process.arguments = ["-c", shell, try BuiltTools.path(of: tool)] + arguments
        process.currentDirectoryURL = BuiltTools.repositoryRoot
        let output = try ProcessLaunch.withLock {
            let output = Pipe()
            process.standardOutput = output
            if let errorFile {
                _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
                process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
            } else {
                process.standardError = FileHandle.nullDevice
            }
            try process.run()
            return output
        }
        self.process = process
        self.output = output
        let line = LimitedServer.firstLine(of: output.fileHandleForReading, within: timeout)
        guard let range = line.range(of: #"http://[^/ ]+:[0-9]+"#, options: .regularExpression),
            let port = line[range].split(separator: ":").last.flatMap({ Int($0) })
        else {
            process.terminate()
            process.waitUntilExit()
            throw ToolError.notReady(tool: tool, output: line)
        }
        self.port = port
    }

    deinit {
        stop()
    }

    /// The server's resident memory in kB (`VmRSS` in `/proc/PID/status`).
    var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// The first line the process writes, waiting at most `timeout` seconds (empty if none).
    private static func firstLine(of handle: FileHandle, within timeout: TimeInterval) -> String {
        let box = LineBox()
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                if pending.contains(UInt8(ascii: "\n")) { break }
            }
            box.set(String(decoding: pending.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
        }
        return box.wait(timeout) ?? ""
    }
}

/// One line handed from a reader thread to a waiting test.
final class LineBox: @unchecked Sendable {
    // @unchecked Sendable: `line` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var line: String?

    func set(_ value: String) {
        condition.lock()
        line = value
        condition.broadcast()
        condition.unlock()
    }

    func wait(_ timeout: TimeInterval) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while line == nil && condition.wait(until: deadline) {}
        return line
    }
}
