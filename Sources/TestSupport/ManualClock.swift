import HTTPServerKit
import Platform

/// A clock that moves only when a test moves it; ``clock`` is the `TimeSource` reading it, for
/// a server's or a stub handler's configuration. Deadlines, delays, dribbles and grace periods
/// then come when the test says, not after a real wait, and the wall clock (the `Date` header,
/// journal timestamps, templating's `now`, date matching) reads the instant the test chose.
///
/// ```swift
/// let time = ManualClock()
/// var configuration = HTTPServerConfiguration(eventLoopCount: 1)
/// configuration.clock = time.clock
/// // ... a request whose answer is delayed by 10 minutes ...
/// time.advance(by: .seconds(601))
/// loop.settle()  // the loop has now run every timer due at the new time
/// ```
package final class ManualClock: Sendable {
    private let time: Locked<UInt64>
    private let released: Locked<Bool>
    /// The clock to give to a server's configuration.
    package let clock: TimeSource

    /// A clock reading `start` monotonic nanoseconds, and `wallNanoseconds` on the wall clock
    /// (by default 1_700_000_000 s plus `start`); both move together.
    package init(startingAt start: UInt64 = 1_000_000_000, wallNanoseconds: Int64? = nil) {
        let time = Locked(start)
        let released = Locked(false)
        self.time = time
        self.released = released
        let wallOrigin = (wallNanoseconds ?? 1_700_000_000_000_000_000 + Int64(start)) - Int64(start)
        clock = TimeSource(
            monotonicNanoseconds: {
                let leap: UInt64 = released.withLock { $0 } ? 3_600_000_000_000 : 0
                return time.withLock { now in
                    now += leap
                    return now
                }
            },
            wallNanoseconds: { wallOrigin + Int64(time.withLock { $0 }) })
    }

    /// Monotonic nanoseconds now.
    package var now: UInt64 { time.withLock { $0 } }

    /// Moves the clock on by `duration`.
    package func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        time.withLock { $0 += UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000) }
    }

    /// Lets the clock run away: from now on each reading is an hour past the last, so every
    /// deadline and timer comes due at the loop's next look. For stopping a server at the end
    /// of a test, whose grace period would otherwise wait on a clock nobody moves.
    package func release() {
        released.withLock { $0 = true }
    }
}

extension HTTPEventLoop {
    /// Returns once the loop has gone through one whole turn that began after the call: it
    /// read the clock, handled its events, ran the timers due then and wrote what they queued.
    /// Three trips through the mailbox: the first may join a turn already under way (its clock
    /// read before the call), the second runs in a turn that read the clock after it, and the
    /// third only once that turn has finished. No timer, no sleep: each trip waits on the loop.
    /// The loop must keep running meanwhile: a stopped loop drops the work, and this would wait
    /// for ever. To see a loop stop after a move of the clock, wake it (`execute {}`) and wait
    /// on the server (`waitUntilStopped()`).
    package func settle() {
        for _ in 0..<3 {
            let done = Locked(false)
            execute {
                done.withLock { $0 = true }
                done.lock.broadcast()
            }
            done.wait { $0 }
        }
    }
}
