import HTTPServer

/// A clock that moves only when a test moves it; ``clock`` is a `ServerClock` reading it.
final class ManualClock: Sendable {
    private let time: SharedValue<UInt64>
    /// The clock to give to a server's configuration.
    let clock: ServerClock

    init(startingAt start: UInt64 = 1_000_000_000) {
        let time = SharedValue(start)
        self.time = time
        clock = ServerClock(
            monotonicNanoseconds: { time.get() }, epochSeconds: { 1_700_000_000 + Int(time.get() / 1_000_000_000) })
    }

    /// Monotonic nanoseconds now.
    var now: UInt64 { time.get() }

    /// Moves the clock on by `duration`.
    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        time.update { $0 += UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000) }
    }
}
