/// One way a value fails its schema: where (a JSONPath, `$.name`), what the schema expects
/// there, what was found, and one line saying so.
package struct SchemaViolation: Sendable, Hashable {
    /// Where in the value, `$.items[2].name`.
    package var path: String
    /// What the schema expects there.
    package var expected: String
    /// What was found: a short excerpt.
    package var found: String
    /// One line saying what is wrong.
    package var message: String

    package init(path: String, expected: String, found: String, message: String) {
        self.path = path
        self.expected = expected
        self.found = found
        self.message = message
    }
}
