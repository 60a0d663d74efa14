#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long to wait before answering: none, fixed, or drawn from a distribution
/// (WireMock's `fixedDelayMilliseconds` and `delayDistribution`). Waiting uses the event
/// loop's timers; no thread sleeps.
public enum HTTPDelay: Sendable, Hashable {
    /// No delay.
    case none
    /// Always this long.
    case fixed(Duration)
    /// Uniformly distributed between the bounds, inclusive.
    case uniform(lower: Duration, upper: Duration)
    /// Log-normally distributed with this median and shape `sigma`, optionally capped.
    case lognormal(median: Duration, sigma: Double, maximum: Duration? = nil)

    /// Draws one delay.
    public func sample<Generator: RandomNumberGenerator>(using generator: inout Generator) -> Duration {
        switch self {
        case .none:
            return .zero
        case .fixed(let duration):
            return max(duration, .zero)
        case .uniform(let lower, let upper):
            let low = lower.nanoseconds
            let high = max(low, upper.nanoseconds)
            return .nanoseconds(Int64(clamping: UInt64.random(in: low...high, using: &generator)))
        case .lognormal(let median, let sigma, let maximum):
            // Box–Muller: a standard normal from two uniforms in (0, 1].
            let first = Double.random(in: Double.leastNonzeroMagnitude...1, using: &generator)
            let second = Double.random(in: 0...1, using: &generator)
            let normal = (-2 * log(first)).squareRoot() * cos(2 * Double.pi * second)
            let nanoseconds = Double(median.nanoseconds) * exp(sigma * normal)
            var result = Duration.nanoseconds(Int64(min(nanoseconds, Double(Int64.max / 2))))
            if let maximum { result = min(result, maximum) }
            return result
        }
    }

    /// Draws one delay from the system generator.
    public func sample() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return sample(using: &generator)
    }
}
