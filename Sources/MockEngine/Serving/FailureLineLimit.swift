/// At most one line a second about failed or refused outgoing calls (webhooks, callbacks): a
/// receiver that is down, or a flood past the bound, must not become a line per request in the
/// terminal (the log keeps every outcome). A value, told the monotonic time of each failure.
struct FailureLineLimit: Sendable {
    /// When the last line was told (0: never; a reading of 0 is kept as 1).
    private(set) var last: UInt64 = 0
    /// How many failures were not told since.
    private(set) var untold = 0

    /// Whether a failure at `now` (monotonic nanoseconds) is told: how many were not told before
    /// it, or nil when it is not told (less than a second after the last line).
    mutating func tell(at now: UInt64) -> Int? {
        if last != 0 && now &- last < 1_000_000_000 {
            untold += 1
            return nil
        }
        defer { (last, untold) = (max(now, 1), 0) }
        return untold
    }
}
