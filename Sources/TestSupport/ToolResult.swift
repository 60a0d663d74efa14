/// How a command-line tool run ended: its exit status and everything it printed.
public struct ToolResult: Sendable {
    /// The exit status (or 128 + signal when it was killed).
    public let status: Int32
    /// Standard output.
    public let stdout: String
    /// Standard error.
    public let stderr: String
    /// Whether the run was stopped for taking longer than its time limit.
    public let timedOut: Bool
    /// From launch to exit, as seen by the thread that saw the exit (not delayed by a busy
    /// task pool).
    public let elapsed: Duration
}
