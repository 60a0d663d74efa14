import Foundation
import Testing

@testable import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TestSupport's `posix_spawn` child: what it inherits, and how its end is reported.
@Suite struct ChildProcessTests {
    /// Runs `/bin/sh -c script` to its end; returns its exit and standard output.
    static func shell(
        _ script: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        directory: String? = nil
    ) throws -> (exit: ChildExit?, output: String) {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", script], environment: environment, directory: directory)
        let output = String(decoding: child.standardOutput.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitUntilExit(timeout: 30))
        return (child.exit, output)
    }

    @Test func exitStatusAndUncaughtSignalAreTold() throws {
        #expect(try Self.shell("exit 3").exit == .exited(3))
        let killed = try Self.shell("kill -TERM $$")
        #expect(killed.exit == .signalled(SIGTERM) && killed.exit?.status == SIGTERM)
    }

    @Test func environmentDirectoryAndStandardInputAreTheGivenOnes() throws {
        let run = try Self.shell(
            "echo \"$PETKIT_CHILD:$(pwd)\"; cat; echo end", environment: ["PETKIT_CHILD": "yes"], directory: "/")
        #expect(run.output == "yes:/\nend\n", "stdin is /dev/null, so cat ends at once")
    }

    @Test func standardErrorHasItsOwnPipe() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2"])
        #expect(String(decoding: child.standardError.readDataToEndOfFile(), as: UTF8.self) == "err\n")
        #expect(String(decoding: child.standardOutput.readDataToEndOfFile(), as: UTF8.self) == "out\n")
        child.waitUntilExit()
        #expect(child.exit == .exited(0) && !child.isRunning && child.terminationStatus == 0)
    }

    /// Both ways of closing the rest run here: the system's (glibc's `addclosefrom_np` on
    /// Linux) and the portable one other systems get.
    @Test(arguments: Spawn.Closing.allCases) func noOtherDescriptorReachesTheChild(closing: Spawn.Closing) throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0, "a pipe without close-on-exec, as careless code makes")
        defer { ends.forEach { close($0) } }
        let script = "for fd in \(ends[0]) \(ends[1]); do (: <&$fd) 2>/dev/null && echo open || echo closed; done"
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", script], environment: ProcessInfo.processInfo.environment,
            directory: "/", closing: closing, onExit: nil)
        let output = String(decoding: child.standardOutput.readDataToEndOfFile(), as: UTF8.self)
        #expect(child.waitUntilExit(timeout: 30))
        #expect(output == "closed\nclosed\n")
        #expect(child.exit == .exited(0))
    }

    @Test func interruptReachesAChildWithDefaultHandlers() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exec sleep 60"])
        #expect(child.isRunning)
        child.interrupt()
        #expect(child.waitUntilExit(timeout: 30), "SIGINT is neither blocked nor ignored in the child")
        #expect(child.exit == .signalled(SIGINT))
        #expect(!child.signal(SIGKILL), "no signal once it was reaped")
    }
}
