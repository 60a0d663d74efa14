import Dispatch
import Foundation
import Testing

@testable import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test waiting on a child process holds no thread: while it waits for a server's readiness
/// line or exit, other tasks run on the same thread. Swift's pool is as wide as the machine has
/// cores (two on the CI machine), and every test shares it, so a wait that blocked its thread
/// would hold back tests that have nothing to do with it.
@Suite struct ServerProcessWaitTests {
    /// A shell that prints a readiness line once a line arrives through `fifo`, ignores SIGTERM,
    /// and exits 0 once a second line arrives.
    static func gatedServer(_ fifo: String) -> [String] {
        ["-c", #"trap '' TERM; read go < "$0"; echo "ready on http://127.0.0.1:1"; read go < "$0"; exit 0"#, fifo]
    }

    @Test func waitingForReadinessAndExitLeavesTheThreadToOtherTasks() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-wait")
        defer { folder.remove() }
        let fifo = folder.file("gate")
        #expect(mkfifo(fifo, 0o600) == 0)
        // One thread for this task and its children: a wait that blocked it would leave the
        // gate shut, so the readiness wait would end at its time limit with no URL, and the exit
        // wait at its grace period with a SIGKILL.
        let executor = SingleThreadExecutor()
        try await withTaskExecutorPreference(executor) {
            async let opened: Void = Self.open(fifo)
            let server = try await ServerProcess(executable: "/bin/sh", Self.gatedServer(fifo), timeout: 20)
            await opened
            #expect(server.port == 1)
            async let openedAgain: Void = Self.open(fifo)
            let status = await server.stop(grace: 20)
            await openedAgain
            #expect(status == 0, "the shell exits 0 once the gate opens again; 9 is the SIGKILL after the grace period")
        }
    }

    /// Opens the gate from a thread of its own (the open blocks until the shell has the FIFO open too).
    static func open(_ fifo: String) async {
        Thread.detachNewThread {
            let descriptor = Glibc.open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = write(descriptor, "go\n", 3)
            close(descriptor)
        }
    }
}

/// A task executor with one thread: jobs run one after another, in order.
final class SingleThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: the only state is the serial queue, which is thread-safe.
    private let queue = DispatchQueue(label: "petkit.single-thread-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
