import APISchema
import JSONKit

/// Merges findings from many responses: the same id, operation, status, place (indices
/// ignored) and expectation become one finding whose count is the sum, keeping the first URL
/// and concrete path. Body excerpts are kept up to ``excerptBudgetPerOperation`` bytes per
/// operation, in the order findings come; later findings of that operation carry none.
///
/// A decode failure that repeats a schema finding about the same key (the app's decoder finds
/// no key where the walk found a key missing, renamed or null) joins it: one change, one
/// finding, whose message ends `the app's decoder fails here: key not found`.
public struct FindingCollector: Sendable {
    /// The most excerpt text (UTF-8 bytes) kept for one operation: a few excerpts of the
    /// largest size, dozens of the usual one.
    public static let excerptBudgetPerOperation = 8 * 1024

    /// Schema findings about a key that a decoder's missing key or null repeats.
    static let joinableIDs: Set<FindingID> = [
        .propertyProbablyRenamed, .requiredPropertyMissing, .requiredPropertyNull,
    ]

    private struct Key: Hashable {
        let id: FindingID
        let operation: String
        let status: Int?
        let path: String
        let expected: String
    }

    /// Where a finding is, whatever its id: a decode failure and a schema finding meet here.
    private struct Place: Hashable {
        let operation: String
        let status: Int?
        let path: String
    }

    /// The merged findings in the order first seen.
    public private(set) var findings: [Finding] = []
    private var index: [Key: Int] = [:]
    private var excerptBytes: [String: Int] = [:]
    /// Schema findings a decode failure at their place joins.
    private var joinable: [Place: Int] = [:]
    /// Decode failures no schema finding has joined yet.
    private var unjoined: [Place: Int] = [:]

    /// Creates an empty collector.
    public init() {}

    /// Adds findings, merging repeats.
    public mutating func add(_ newFindings: [Finding]) {
        for finding in newFindings {
            let general = (try? JSONPath(finding.path).generalized.description) ?? finding.path
            let key = Key(
                id: finding.id, operation: finding.operation, status: finding.status, path: general,
                expected: finding.expected)
            let place = Place(operation: finding.operation, status: finding.status, path: general)
            let reason = FindingCollector.decoderReason(finding)
            if let reason, let target = joinable[place] {
                findings[target] = FindingCollector.joined(findings[target], decoder: finding, reason: reason)
                continue
            }
            if let existing = index[key] {
                findings[existing].count += finding.count
                continue
            }
            let isJoinable = FindingCollector.joinableIDs.contains(finding.id) && finding.level == .breaking
            if isJoinable, let position = unjoined[place],
                let earlier = FindingCollector.decoderReason(findings[position])
            {
                // The decode failure came first (another response): this finding takes its place.
                let decode = findings[position]
                index[
                    Key(
                        id: decode.id, operation: decode.operation, status: decode.status, path: general,
                        expected: decode.expected)] = nil
                findings[position] = FindingCollector.joined(finding, decoder: decode, reason: earlier)
                index[key] = position
                joinable[place] = position
                unjoined[place] = nil
                continue
            }
            var kept = finding
            if let excerpt = kept.excerpt {
                let used = excerptBytes[kept.operation, default: 0] + excerpt.text.utf8.count
                if used > FindingCollector.excerptBudgetPerOperation {
                    kept.excerpt = nil
                } else {
                    excerptBytes[kept.operation] = used
                }
            }
            index[key] = findings.count
            if isJoinable { joinable[place] = findings.count }
            if reason != nil { unjoined[place] = findings.count }
            findings.append(kept)
        }
    }

    /// `finding` saying that the app's decoder fails at its place too.
    private static func joined(_ finding: Finding, decoder: Finding, reason: String) -> Finding {
        var finding = finding
        let note = "the app's decoder fails here: \(reason)"
        if !finding.message.hasSuffix(note) { finding.message += "; " + note }
        if finding.swift == nil { finding.swift = decoder.swift }
        return finding
    }

    /// For a decode failure that a schema finding about a key repeats (no key, or null where
    /// the type needs a value), what the decoder says in words; nil for any other finding.
    static func decoderReason(_ finding: Finding) -> String? {
        guard finding.id == .decodeFailed else { return nil }
        if finding.actual.contains("keyNotFound(") { return "key not found" }
        if finding.actual.contains("valueNotFound(") { return "value not found (null)" }
        return nil
    }
}
