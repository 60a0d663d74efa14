import JSONKit

/// Merges findings from many responses: the same id, operation, status, place (indices
/// ignored) and expectation become one finding whose count is the sum, keeping the first URL
/// and concrete path.
public struct FindingCollector: Sendable {
    private struct Key: Hashable {
        let id: FindingID
        let operation: String
        let status: Int?
        let path: String
        let expected: String
    }

    /// The merged findings in the order first seen.
    public private(set) var findings: [Finding] = []
    private var index: [Key: Int] = [:]

    /// Creates an empty collector.
    public init() {}

    /// Adds findings, merging repeats.
    public mutating func add(_ newFindings: [Finding]) {
        for finding in newFindings {
            let general = (try? JSONPath(finding.path).generalized.description) ?? finding.path
            let key = Key(
                id: finding.id, operation: finding.operation, status: finding.status, path: general,
                expected: finding.expected)
            if let existing = index[key] {
                findings[existing].count += finding.count
            } else {
                index[key] = findings.count
                findings.append(finding)
            }
        }
    }
}
