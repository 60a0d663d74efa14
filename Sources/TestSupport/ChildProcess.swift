import CSpawn
import Dispatch
import Foundation
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, its standard output and error on pipes.
///
/// It replaces Foundation's `Process`, whose Linux `run()` lists `/proc/self/fd` to close
/// descriptors and once crashed there (a `memcpy` reading past the end of the directory
/// buffer while hundreds of threads and sockets were open). Here the child closes every
/// descriptor from 3 up itself (glibc's `posix_spawn_file_actions_addclosefrom_np`, Darwin's
/// `POSIX_SPAWN_CLOEXEC_DEFAULT`), so nothing another thread opens meanwhile leaks into it and
/// no lock is needed around the start. Other systems get one close action per descriptor open
/// at the start (descriptors opened meanwhile reach the child unless close-on-exec).
/// Standard input is `/dev/null`; the child starts with no blocked signals and the default
/// handlers for SIGINT, SIGTERM, SIGPIPE and SIGCHLD. One small thread per child waits for
/// its exit.
///
/// ```swift
/// let child = try ChildProcess(executable: "/bin/echo", arguments: ["hi"])
/// let output = child.standardOutput.readDataToEndOfFile()
/// child.waitUntilExit()
/// ```
package final class ChildProcess: Sendable {
    /// The child's process ID.
    package let processIdentifier: pid_t
    /// The read end of the child's standard output.
    package let standardOutput: FileHandle
    /// The read end of the child's standard error.
    package let standardError: FileHandle
    private let ending: Locked<ChildExit?>
    private let ended: DispatchGroup

    /// Starts `executable arguments...` in `directory` (the caller's when nil) with exactly
    /// `environment`; `onExit` runs on the waiting thread once the child has been reaped.
    package convenience init(
        executable: String, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        directory: String? = nil, onExit: (@Sendable (ChildExit) -> Void)? = nil
    ) throws(ChildProcessError) {
        try self.init(
            executable: executable, arguments: arguments, environment: environment, directory: directory,
            closing: .system, onExit: onExit)
    }

    /// Starts the child as above, its other descriptors closed the way `closing` says.
    init(
        executable: String, arguments: [String], environment: [String: String], directory: String?,
        closing: Spawn.Closing, onExit: (@Sendable (ChildExit) -> Void)?
    ) throws(ChildProcessError) {
        let output = try Self.pipe(for: executable)
        let errors: (read: Int32, write: Int32)
        do {
            errors = try Self.pipe(for: executable)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        let spawned = Spawn.start(
            executable: executable, arguments: arguments, environment: environment, directory: directory,
            output: output.write, errors: errors.write, closing: closing)
        close(output.write)
        close(errors.write)
        guard case .success(let pid) = spawned, let ending = Self.watch(pid, onExit: onExit) else {
            close(output.read)
            close(errors.read)
            if case .failure(let failure) = spawned {
                throw ChildProcessError(executable: executable, call: failure.call, errno: failure.errno)
            }
            throw ChildProcessError(executable: executable, call: "pthread_create", errno: EAGAIN)
        }
        processIdentifier = pid
        standardOutput = FileHandle(fileDescriptor: output.read, closeOnDealloc: true)
        standardError = FileHandle(fileDescriptor: errors.read, closeOnDealloc: true)
        self.ending = ending.state
        ended = ending.group
    }

    /// Whether the child has not been reaped yet.
    package var isRunning: Bool { ending.withLock { $0 == nil } }

    /// How it ended, or nil while it runs.
    package var exit: ChildExit? { ending.withLock { $0 } }

    /// The exit status or the killing signal's number (as `Process` gives it); -1 while it runs.
    package var terminationStatus: Int32 { exit?.status ?? -1 }

    /// Sends SIGTERM.
    package func terminate() { signal(SIGTERM) }

    /// Sends SIGINT, as Ctrl-C does.
    package func interrupt() { signal(SIGINT) }

    /// Sends SIGKILL.
    package func kill() { signal(SIGKILL) }

    /// Sends `number` unless the child has been reaped (its ID may then be another process's);
    /// returns whether it was sent.
    @discardableResult
    package func signal(_ number: Int32) -> Bool {
        // The waiter reaps under the same lock, so the ID is still this child's here.
        ending.withLock { $0 == nil && sendSignal(processIdentifier, number) == 0 }
    }

    /// Waits until the child has been reaped.
    package func waitUntilExit() { ended.wait() }

    /// Waits at most `timeout` seconds until the child has been reaped; returns whether it was.
    package func waitUntilExit(timeout: TimeInterval) -> Bool {
        ended.wait(timeout: .now() + timeout) == .success
    }

    /// Waits at most `timeout` seconds until the child has been reaped, the task suspended and
    /// no thread blocked; returns whether it was.
    package func exited(within timeout: TimeInterval) async -> Bool {
        let ended = ended
        return await SuspendedWait.until(timeout: timeout) { done in ended.notify(queue: .global(), execute: done) }
    }

    private static func pipe(for executable: String) throws(ChildProcessError) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard cspawn_pipe(&descriptors) == 0 else {
            throw ChildProcessError(executable: executable, call: "pipe2", errno: errno)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Starts the thread that waits for `pid`'s exit; nil (the child killed and reaped) when
    /// no thread could be started.
    private static func watch(
        _ pid: pid_t, onExit: (@Sendable (ChildExit) -> Void)?
    ) -> (state: Locked<ChildExit?>, group: DispatchGroup)? {
        let state = Locked<ChildExit?>(nil)
        let group = DispatchGroup()
        group.enter()
        do {
            try PlatformThread.start {
                // Wait without reaping, then reap under the lock `signal` holds, so a signal
                // never reaches a process that reused the ID. WNOHANG: should `waitid` return
                // early, the lock is not held while the child still runs.
                var info = siginfo_t()
                while true {
                    let waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
                    if waited != 0 && errno == EINTR { continue }
                    let reaped = state.withLock { ending -> ChildExit? in
                        var status: Int32 = 0
                        let flags = waited == 0 ? WNOHANG : 0
                        var result = waitpid(pid, &status, flags)
                        while result < 0 && errno == EINTR { result = waitpid(pid, &status, flags) }
                        if result == 0 { return nil }
                        ending = result == pid ? ChildExit(waitStatus: status) : .exited(-1)
                        return ending
                    }
                    guard let reaped else { continue }
                    group.leave()
                    onExit?(reaped)
                    return
                }
            }.detach()
        } catch {
            _ = sendSignal(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return nil
        }
        return (state, group)
    }
}

/// `kill(2)`, out of reach of ``ChildProcess/kill()``'s name.
private func sendSignal(_ pid: pid_t, _ number: Int32) -> Int32 {
    kill(pid, number)
}
