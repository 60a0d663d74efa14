/// A schema with the name it has under `components/schemas`.
public struct NamedSchema: Sendable, Hashable {
    /// The component name (the Swift type's name, made safe for a JSON pointer).
    public var name: String
    /// The schema.
    public var schema: Schema

    /// Creates a named schema.
    public init(name: String, schema: Schema) {
        self.name = name
        self.schema = schema
    }
}
