/// How a command-line tool run ended: its exit status and everything it printed.
package struct ToolResult: Sendable {
    /// The exit status (or 128 + signal when it was killed).
    package let status: Int32
    /// Standard output.
    package let stdout: String
    /// Standard error.
    package let stderr: String
    /// Whether the run was stopped for taking longer than its time limit.
    package let timedOut: Bool
    /// From launch to exit, as seen by the thread that saw the exit (not delayed by a busy
    /// task pool).
    package let elapsed: Duration
}
