/// Why a JSON body did not decode into the expected type, and where.
public struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
    /// The URL whose body failed.
    public let url: String
    /// The type being decoded, such as `[PetJsonModel]`.
    public let type: String
    /// The coding path of the offending value, such as `[2].vetId` (empty for the body itself).
    public let path: String
    /// What was expected and what was found, such as `expected Int, found string`.
    public let problem: String
    /// A short excerpt of the offending value as JSON (for a missing key, its object).
    public let excerpt: String

    /// Creates a failure.
    public init(url: String, type: String, path: String, problem: String, excerpt: String) {
        self.url = url
        self.type = type
        self.path = path
        self.problem = problem
        self.excerpt = excerpt
    }

    /// The path written after `prefix`, with a `.` before a key: `$` gives `$[2].vetId` or
    /// `$.vetId`, and `$` alone for the body itself.
    func path(after prefix: String) -> String {
        path.isEmpty ? prefix : prefix + (path.hasPrefix("[") ? path : "." + path)
    }

    public var description: String {
        let location = path(after: "$")
        // The excerpt is JSON text: a string shows its own quotes (`found string "2"`).
        let found = excerpt.isEmpty ? "" : " \(excerpt)"
        return "\(url): cannot decode \(type) at \(location): \(problem)\(found)"
    }
}
