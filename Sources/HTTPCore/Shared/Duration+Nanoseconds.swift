extension Duration {
    /// The duration in whole nanoseconds: 0 for a negative one, `UInt64.max` for one too long to
    /// count (a configured timeout of years must not trap the event loop that adds it to a clock).
    package var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (total, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return carry ? .max : total
    }
}
