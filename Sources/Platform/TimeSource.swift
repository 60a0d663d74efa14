#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// petkit's one clock: a monotonic reading for durations, timeouts and timers, and a wall-clock
/// reading (since 1970-01-01T00:00:00Z) for the `Date` header, journal timestamps, templating's
/// `now` and date matching. ``system`` reads the operating system's clocks; a test passes a
/// clock it moves by hand (TestSupport's `ManualClock`) or a ``fixed(wallNanoseconds:)`` one,
/// and every reader sees the same time.
///
/// ```swift
/// let clock = TimeSource.fixed(wallNanoseconds: 1_700_000_000 * 1_000_000_000)
/// clock.wallMilliseconds  // 1_700_000_000_000
/// ```
///
/// Two clocks are equal when they are the same instance.
public final class TimeSource: Sendable, Hashable {
    private let monotonic: @Sendable () -> UInt64
    private let wall: @Sendable () -> Int64
    private let seconds: @Sendable () -> Int

    /// Creates a clock from its two readings: monotonic nanoseconds (never decreasing) and
    /// wall-clock nanoseconds since the Unix epoch.
    package convenience init(
        monotonicNanoseconds: @escaping @Sendable () -> UInt64, wallNanoseconds: @escaping @Sendable () -> Int64
    ) {
        self.init(
            monotonic: monotonicNanoseconds, wall: wallNanoseconds,
            seconds: { Int(Self.floorDivide(wallNanoseconds(), 1_000_000_000)) })
    }

    private init(
        monotonic: @escaping @Sendable () -> UInt64, wall: @escaping @Sendable () -> Int64,
        seconds: @escaping @Sendable () -> Int
    ) {
        self.monotonic = monotonic
        self.wall = wall
        self.seconds = seconds
    }

    /// Nanoseconds on the monotonic clock (an arbitrary origin; only differences mean anything).
    package var monotonicNanoseconds: UInt64 { monotonic() }

    /// Nanoseconds since 1970-01-01T00:00:00Z.
    package var wallNanoseconds: Int64 { wall() }

    /// Milliseconds since 1970-01-01T00:00:00Z (what the journal and templates keep).
    package var wallMilliseconds: Int64 { Self.floorDivide(wall(), 1_000_000) }

    /// Whole seconds since 1970-01-01T00:00:00Z, for what changes once a second (the `Date`
    /// header): ``system`` reads the cheap coarse real-time clock on Linux for it.
    package var wallSeconds: Int { seconds() }

    /// The time since `start`, a reading of ``monotonicNanoseconds`` (a duration measured on
    /// this clock).
    package func elapsed(since start: UInt64) -> Duration {
        let now = monotonic()
        return .nanoseconds(Int64(clamping: now > start ? now - start : 0))
    }

    /// The operating system's clocks: `CLOCK_MONOTONIC` and `CLOCK_REALTIME`, and for
    /// ``wallSeconds`` `CLOCK_REALTIME_COARSE` on Linux.
    public static let system = TimeSource(
        monotonic: {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        },
        wall: {
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
        },
        seconds: {
            var time = timespec()
            #if os(Linux)
            clock_gettime(CLOCK_REALTIME_COARSE, &time)
            #else
            clock_gettime(CLOCK_REALTIME, &time)
            #endif
            return Int(time.tv_sec)
        })

    /// A clock that always reads the same instant (and a monotonic reading that never moves).
    package static func fixed(wallNanoseconds: Int64) -> TimeSource {
        TimeSource(monotonicNanoseconds: { 1_000_000_000 }, wallNanoseconds: { wallNanoseconds })
    }

    public static func == (left: TimeSource, right: TimeSource) -> Bool { left === right }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Division rounding toward negative infinity.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
