import HTTPServerKit

#if canImport(Glibc)
import Glibc
#endif

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

/// Moves `clock` on by `step` and wakes `loop`, round after round, until `descriptor` has
/// something to read (the server answered) or `rounds` are used up; returns whether it did.
/// Each round waits at most 50 ms for the answer: rounds exist because the loop arms a
/// deadline or timer at whatever reading it takes when it gets to it.
func advanceUntilAnswered(
    _ descriptor: Int32, clock: ManualClock, step: Duration, loop: HTTPEventLoop, rounds: Int = 100
) -> Bool {
    for _ in 0..<rounds {
        clock.advance(by: step)
        loop.execute {}
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, 50) > 0 { return true }
    }
    return false
}
