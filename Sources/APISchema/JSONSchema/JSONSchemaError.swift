/// A JSON Schema that cannot be applied: where in the schema (a JSON Pointer such as
/// `#/properties/id/pattern`) and why.
package struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The place in the schema.
    package let path: String
    /// What is wrong there.
    package let reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { reason }
}
