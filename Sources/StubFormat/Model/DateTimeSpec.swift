/// A date-time matcher as written (WireMock's `before`, `after` and `equalToDateTime` with their
/// options): compared when the stub loads, compiled into ``DateTimeMatcher``.
public struct DateTimeSpec: Sendable, Hashable, CustomStringConvertible {
    /// Which comparison: the WireMock operator name.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case before, after, equalToDateTime
    }

    public var comparison: Comparison
    /// The expected date-time: ISO 8601 (zoned or local), `now`, `now +3 days` or `-15 days`.
    public var expected: String
    /// How the request's value is written (`actualFormat`: a Java pattern, `unix` or `epoch`).
    public var actualFormat: String?
    /// An offset from now (`expectedOffset`, with ``expectedOffsetUnit``).
    public var expectedOffset: Int?
    /// `seconds`, `minutes`, `hours`, `days`, `months` or `years`.
    public var expectedOffsetUnit: String?
    /// Where to move the expected date-time (`first day of month`, ...).
    public var truncateExpected: String?
    /// Where to move the request's date-time.
    public var truncateActual: String?
    /// Whether the offset applies before the truncation (`applyTruncationLast`).
    public var applyTruncationLast: Bool

    /// Creates a date-time matcher.
    public init(
        _ comparison: Comparison, _ expected: String, actualFormat: String? = nil, expectedOffset: Int? = nil,
        expectedOffsetUnit: String? = nil, truncateExpected: String? = nil, truncateActual: String? = nil,
        applyTruncationLast: Bool = false
    ) {
        self.comparison = comparison
        self.expected = expected
        self.actualFormat = actualFormat
        self.expectedOffset = expectedOffset
        self.expectedOffsetUnit = expectedOffsetUnit
        self.truncateExpected = truncateExpected
        self.truncateActual = truncateActual
        self.applyTruncationLast = applyTruncationLast
    }

    /// The option keys a date-time matcher object may carry beside its operator.
    package static let optionKeys = [
        "actualFormat", "expectedOffset", "expectedOffsetUnit", "truncateExpected", "truncateActual",
        "applyTruncationLast",
    ]

    public var description: String {
        var text = "\(comparison.rawValue) '\(expected)'"
        if let expectedOffset, let expectedOffsetUnit {
            text += " \(expectedOffset >= 0 ? "+" : "")\(expectedOffset) \(expectedOffsetUnit)"
        }
        if let actualFormat { text += " (format '\(actualFormat)')" }
        if let truncateExpected { text += " (expected truncated to \(truncateExpected))" }
        if let truncateActual { text += " (actual truncated to \(truncateActual))" }
        return text
    }
}
