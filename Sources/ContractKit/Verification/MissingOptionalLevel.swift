import APISchema

/// The level of `response-optional-property-missing` and `response-optional-property-null`
/// findings (`--missing-optional`).
///
/// A contract generated from the app's models knows which properties the app cannot do
/// without (those are required) and which it reads when present: a missing optional one is a
/// warning. A third-party description does not know what the app needs, and many APIs leave
/// optional properties out or null as a matter of course: there the default is info.
public enum MissingOptionalLevel: String, Sendable, Hashable, CaseIterable {
    /// Leave these findings out (counted as ignored).
    case ignore
    /// Report them as info: never a failure.
    case info
    /// Report them as warnings (their own level): a failure with `--strict`.
    case warning

    /// The findings the level applies to.
    public static let findingIDs: Set<FindingID> = [.optionalPropertyMissing, .optionalPropertyNull]

    /// The default for a contract: `warning` for the app's built-in contract and for a file
    /// whose responses name a Swift type (`x-swift-type`, as generated contracts do); `info`
    /// for a third-party file that names none.
    public static func defaultLevel(for contract: Contract, builtIn: Bool) -> MissingOptionalLevel {
        if builtIn { return .warning }
        let named = contract.operations.contains { $0.responses.contains { $0.swiftType != nil } }
        return named ? .warning : .info
    }
}

extension VerificationReport {
    /// The report with optional-property findings at `level`: `warning` keeps them as they are,
    /// `info` lowers them, `ignore` removes them and counts them as ignored.
    public func applying(missingOptional level: MissingOptionalLevel) -> VerificationReport {
        var copy = self
        switch level {
        case .warning: break
        case .info:
            copy.findings = findings.map { finding in
                var finding = finding
                if MissingOptionalLevel.findingIDs.contains(finding.id) { finding.level = .info }
                return finding
            }
        case .ignore:
            copy.findings = findings.filter { !MissingOptionalLevel.findingIDs.contains($0.id) }
            copy.ignored += findings.count - copy.findings.count
        }
        return copy
    }
}
