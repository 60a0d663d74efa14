/// One way a request breaks what its operation documents: where, what was expected there,
/// and what was found (an excerpt).
public struct RequestViolation: Sendable, Hashable {
    /// Where: `path.id`, `query.limit`, `header.X-Trace`, `cookie.session`, `body` or a JSONPath
    /// below it, `body.$.name`.
    public var location: String
    /// What the operation documents there: `integer`, `a value`, `one of application/json`.
    public var expected: String
    /// What the request has there, quoted, escaped and cut short; `nothing` when absent.
    public var found: String
    /// One line saying what is wrong.
    public var message: String

    /// Creates a violation.
    public init(location: String, expected: String, found: String, message: String) {
        self.location = location
        self.expected = expected
        self.found = found
        self.message = message
    }

    /// `query.limit: expected integer, found 'abc'`.
    public var description: String { "\(location): expected \(expected), found \(found)" }
}
