/// A criterion on the parts of a `multipart/*` body (WireMock's `multipartPatterns` entry):
/// with `ANY`, some part satisfies every header and body matcher; with `ALL`, every part does.
public struct MultipartPattern: Sendable, Hashable, CustomStringConvertible {
    /// Whether one part (`ANY`, the default) or every part (`ALL`) must match.
    public enum MatchingType: String, Sendable, Hashable {
        case any = "ANY"
        case all = "ALL"
    }

    public var matchingType: MatchingType
    /// The part's form field name: `Content-Disposition` must contain `name="..."`.
    public var name: String?
    /// The part's file name (`Content-Disposition`'s `filename`), exactly.
    public var fileName: String?
    /// Matchers for the part's header fields, by name (case-insensitive).
    public var headers: [NamedMatcher]
    /// Matchers the part's body must all satisfy.
    public var bodyPatterns: [StringMatcher]

    /// Creates a multipart criterion.
    public init(
        matchingType: MatchingType = .any, name: String? = nil, fileName: String? = nil, headers: [NamedMatcher] = [],
        bodyPatterns: [StringMatcher] = []
    ) {
        self.matchingType = matchingType
        self.name = name
        self.fileName = fileName
        self.headers = headers
        self.bodyPatterns = bodyPatterns
    }

    public var description: String {
        var parts: [String] = []
        if let name { parts.append("name '\(name)'") }
        if let fileName { parts.append("file name '\(fileName)'") }
        parts += headers.map { "header '\($0.name)' \($0.matcher)" }
        parts += bodyPatterns.map { "body \($0)" }
        let what = parts.isEmpty ? "any part" : parts.joined(separator: ", ")
        return (matchingType == .all ? "every part: " : "a part with ") + what
    }
}
