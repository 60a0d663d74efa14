/// Where the date-time matchers read "now": the system clock when serving, a fixed instant in
/// tests (no test reads the wall clock).
public struct MatchClock: Sendable {
    /// Nanoseconds since the Unix epoch, UTC.
    public let now: @Sendable () -> Int64

    /// Creates a clock from a function giving the time.
    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The system's real-time clock.
    public static let system = MatchClock { Timestamp.nowMilliseconds() * 1_000_000 }

    /// A clock that always says the same instant (seconds since the epoch).
    public static func fixed(secondsSinceEpoch seconds: Int64) -> MatchClock {
        MatchClock { seconds * 1_000_000_000 }
    }
}
