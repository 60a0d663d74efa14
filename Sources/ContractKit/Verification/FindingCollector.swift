import JSONKit

/// Merges findings from many responses: the same id, operation, status, place (indices
/// ignored) and expectation become one finding whose count is the sum, keeping the first URL
/// and concrete path. Body excerpts are kept up to ``excerptBudgetPerOperation`` bytes per
/// operation, in the order findings come; later findings of that operation carry none.
public struct FindingCollector: Sendable {
    /// The most excerpt text (UTF-8 bytes) kept for one operation: a few excerpts of the
    /// largest size, dozens of the usual one.
    public static let excerptBudgetPerOperation = 8 * 1024

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
    private var excerptBytes: [String: Int] = [:]

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
                var finding = finding
                if let excerpt = finding.excerpt {
                    let used = excerptBytes[finding.operation, default: 0] + excerpt.text.utf8.count
                    if used > FindingCollector.excerptBudgetPerOperation {
                        finding.excerpt = nil
                    } else {
                        excerptBytes[finding.operation] = used
                    }
                }
                index[key] = findings.count
                findings.append(finding)
            }
        }
    }
}
