import HTTPCore
import Platform
import StubFormat

/// A date-time matcher made ready: the expected date-time fixed or worked out from the clock
/// per request, the actual format read once.
struct DateTimeMatcher: Sendable {
    enum Expected: Sendable {
        case literal(CivilDateTime)
        case fromNow(amount: Int, unit: DateTimeUnit)
    }

    let comparison: DateTimeSpec.Comparison
    let expected: Expected
    let format: DateTimeFormat
    let truncateExpected: DateTruncation?
    let truncateActual: DateTruncation?
    let applyTruncationLast: Bool
    let clock: TimeSource

    /// Compiles a spec; throws the reason it cannot be (an unreadable date, unit or truncation).
    init(_ spec: DateTimeSpec, clock: TimeSource) throws(PatternError) {
        comparison = spec.comparison
        if let unitName = spec.expectedOffsetUnit, spec.expectedOffset == nil {
            throw PatternError(pattern: unitName, reason: "'expectedOffsetUnit' without 'expectedOffset'")
        }
        if let amount = spec.expectedOffset {
            guard let unitName = spec.expectedOffsetUnit, let unit = DateTimeUnit(rawValue: unitName.lowercased())
            else {
                throw PatternError(
                    pattern: spec.expectedOffsetUnit ?? "",
                    reason: "'expectedOffsetUnit' must be one of "
                        + DateTimeUnit.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard spec.expected.lowercased() == "now" || Self.offset(spec.expected) != nil else {
                throw PatternError(pattern: spec.expected, reason: "'expectedOffset' needs an expected value of 'now'")
            }
            expected = .fromNow(amount: amount, unit: unit)
        } else if let offset = Self.offset(spec.expected) {
            expected = .fromNow(amount: offset.amount, unit: offset.unit)
        } else if let literal = DateTimeFormat.iso(spec.expected) {
            expected = .literal(literal)
        } else {
            throw PatternError(
                pattern: spec.expected,
                reason: "not a date-time: expected ISO 8601 (2021-06-14T15:15:15Z, 2021-06-14T15:15:15, 2021-06-14), "
                    + "'now', or an offset such as 'now +3 days'")
        }
        format =
            try spec.actualFormat.map { (text) throws(PatternError) in try DateTimeFormat(actualFormat: text) }
            ?? .standard
        truncateExpected = try Self.truncation(spec.truncateExpected, "truncateExpected")
        truncateActual = try Self.truncation(spec.truncateActual, "truncateActual")
        applyTruncationLast = spec.applyTruncationLast
        self.clock = clock
    }

    private static func truncation(_ name: String?, _ field: String) throws(PatternError) -> DateTruncation? {
        guard let name else { return nil }
        guard let truncation = DateTruncation(named: name) else {
            throw PatternError(
                pattern: name,
                reason: "'\(field)' must be one of "
                    + DateTruncation.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return truncation
    }

    /// `now`, `now +3 days`, `now -1 months`, `15 days`, `-15 days` (WireMock's offset forms).
    static func offset(_ text: String) -> (amount: Int, unit: DateTimeUnit)? {
        let parts = text.split(separator: " ")
        if parts.count == 1, parts[0].lowercased() == "now" { return (0, .seconds) }
        let rest = parts.count == 3 && parts[0].lowercased() == "now" ? parts.dropFirst() : parts[...]
        guard rest.count == 2, let amountText = rest.first, let unitText = rest.last,
            let amount = Int(amountText.hasPrefix("+") ? amountText.dropFirst() : amountText),
            abs(amount) <= 100_000, let unit = DateTimeUnit(rawValue: unitText.lowercased())
        else { return nil }
        return (amount, unit)
    }

    /// The expected date-time now: the clock's instant in UTC, truncated and moved by the
    /// offset (moved first with `applyTruncationLast`).
    private func expectedNow() -> CivilDateTime {
        switch expected {
        case .literal(let value): return value
        case .fromNow(let amount, let unit):
            let now = CivilDateTime(utcNanoseconds: clock.wallNanoseconds)
            if applyTruncationLast {
                let moved = now.adding(amount, unit)
                return truncateExpected?.apply(to: moved) ?? moved
            }
            return (truncateExpected?.apply(to: now) ?? now).adding(amount, unit)
        }
    }

    /// The signed gap between the actual and expected date-times in nanoseconds, or nil when the
    /// value is not a date-time. Both zoned: instants; otherwise wall clocks (WireMock's rule;
    /// a local date-time against a zoned one is read as UTC).
    private func gap(_ value: String) -> Int64? {
        guard var actual = format.parse(value) else { return nil }
        if let truncateActual, actual.offset != nil { actual = truncateActual.apply(to: actual) }
        let expected = expectedNow()
        if expected.offset != nil { return actual.instantNanoseconds &- expected.instantNanoseconds }
        return actual.wallNanoseconds &- expected.wallNanoseconds
    }

    /// Whether the value is before, after or equal to the expected date-time.
    func matches(_ value: String) -> Bool {
        guard let gap = gap(value) else { return false }
        switch comparison {
        case .before: return gap < 0
        case .after: return gap > 0
        case .equalToDateTime: return gap == 0
        }
    }

    /// How far a value that does not match is: the time between the two over that plus two
    /// years (WireMock's scale: two years apart is 0.5), 1 when it is not a date-time.
    func distance(_ value: String) -> Double {
        guard let gap = gap(value) else { return 1 }
        let milliseconds = Double(gap.magnitude / 1_000_000)
        return milliseconds / (milliseconds + 2 * 365 * 86_400_000)
    }
}
