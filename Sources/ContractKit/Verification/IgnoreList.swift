import APISchema
import JSONKit
import Platform

/// Findings a team has accepted, by id and path (and optionally operation), read from an
/// ignore file:
///
/// ```
/// # id                                  path          operation (optional)
/// response-optional-property-null       $.title       GET /vets/{id}
/// response-optional-property-missing    $[*].lastName
/// response-property-unexpected          *
/// ```
///
/// A path matches a finding's concrete path or the same path with every index as `[*]`;
/// `*` matches any path.
public struct IgnoreList: Sendable, Hashable {
    /// One accepted finding pattern.
    public struct Entry: Sendable, Hashable {
        /// The finding id.
        public var id: FindingID
        /// A JSONPath, or `*`.
        public var path: String
        /// The operation, or nil for any.
        public var operation: String?

        /// Creates an entry.
        public init(id: FindingID, path: String, operation: String? = nil) {
            self.id = id
            self.path = path
            self.operation = operation
        }
    }

    /// The entries.
    public var entries: [Entry]

    /// Creates a list.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Parses an ignore file's text; `file` names it in errors.
    public init(text: String, file: String) throws(ContractError) {
        var entries: [Entry] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            guard let id = FindingID(rawValue: words[0]) else {
                throw .invalidIgnoreFile(file: file, line: number + 1, message: "unknown finding id '\(words[0])'")
            }
            guard words.count >= 2 else {
                throw .invalidIgnoreFile(file: file, line: number + 1, message: "expected a path after '\(words[0])'")
            }
            if words[1] != "*" && (try? JSONPath(words[1])) == nil {
                throw .invalidIgnoreFile(
                    file: file, line: number + 1, message: "'\(words[1])' is not a JSONPath or '*'")
            }
            let operation = words.count > 2 ? words[2...].joined(separator: " ") : nil
            entries.append(Entry(id: id, path: words[1], operation: operation))
        }
        self.entries = entries
    }

    /// Reads an ignore file.
    public init(file: String) throws(ContractError) {
        guard let bytes = try? FileSystem.read(file) else {
            throw .io(path: file, message: "cannot read the ignore file")
        }
        try self.init(text: String(decoding: bytes, as: UTF8.self), file: file)
    }

    /// Whether the list accepts the finding.
    public func accepts(_ finding: Finding) -> Bool {
        entries.contains { entry in
            guard entry.id == finding.id else { return false }
            if let operation = entry.operation, operation != finding.operation { return false }
            if entry.path == "*" || entry.path == finding.path { return true }
            let general = (try? JSONPath(finding.path).generalized.description) ?? finding.path
            let pattern = (try? JSONPath(entry.path).description) ?? entry.path
            return pattern == general
        }
    }
}
