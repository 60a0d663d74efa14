#if canImport(Glibc)
import HTTPHandlerKit
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an HTTP server reads the time: a monotonic reading for timeouts, delays and timers,
/// and wall-clock seconds for the `Date` header. ``system`` reads the operating system's
/// clocks; a test passes its own to move time by hand instead of waiting.
///
/// Two clocks are equal when they are the same instance.
public final class ServerClock: Sendable, Hashable {
    private let monotonic: @Sendable () -> UInt64
    private let epoch: @Sendable () -> Int

    /// Creates a clock from its two readings: monotonic nanoseconds (never decreasing) and
    /// whole seconds since the Unix epoch.
    public init(
        monotonicNanoseconds: @escaping @Sendable () -> UInt64, epochSeconds: @escaping @Sendable () -> Int
    ) {
        monotonic = monotonicNanoseconds
        epoch = epochSeconds
    }

    /// Nanoseconds on the monotonic clock.
    public var now: UInt64 { monotonic() }

    /// Whole seconds since the Unix epoch.
    public var epochSeconds: Int { epoch() }

    /// The operating system's clocks (`CLOCK_MONOTONIC`, and the coarse real-time clock).
    public static let system = ServerClock(
        monotonicNanoseconds: {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        },
        epochSeconds: {
            var time = timespec()
            #if os(Linux)
            clock_gettime(CLOCK_REALTIME_COARSE, &time)
            #else
            clock_gettime(CLOCK_REALTIME, &time)
            #endif
            return Int(time.tv_sec)
        })

    public static func == (left: ServerClock, right: ServerClock) -> Bool { left === right }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
