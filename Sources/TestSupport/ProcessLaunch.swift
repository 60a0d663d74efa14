import Foundation

/// Starts child processes one at a time, so that no child inherits another's descriptors.
///
/// On Linux, Foundation's `Process.run()` lists `/proc/self/fd` and closes what it found in
/// the child, then spawns it. A descriptor another thread opens in between leaks into that
/// child: a `Pipe` (whose reader then sees no end of file until that child ends too), or the
/// socket pair through which `Process` learns that its own child exited. A leaked exit socket
/// leaves the first child a zombie that `waitUntilExit()` waits on until the second child
/// ends, and a test that stops the first and then the second waits forever (seen under
/// ThreadSanitizer with the variant matrix's dozens of `petmock` processes).
///
/// Create the child's pipes and files and call `run()` inside ``withLock(_:)``.
///
/// ```swift
/// let output = Pipe()
/// try ProcessLaunch.withLock {
///     process.standardOutput = output
///     try process.run()
/// }
/// ```
public enum ProcessLaunch {
    private static let lock = NSLock()

    /// Runs `body` while no other child process is being started.
    public static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
