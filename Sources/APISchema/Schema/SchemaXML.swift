/// A schema's `xml` object (OpenAPI 3.0 and 3.1, Swagger 2.0): how a value of the schema is
/// written as XML. A property is an element named after its key unless ``name`` says
/// otherwise, or an attribute of its parent with ``attribute``; an array's elements repeat
/// under the array's own name, inside one wrapping element with ``wrapped``.
public struct SchemaXML: Sendable, Hashable {
    /// `name`: the element's (or attribute's) name; for an array's `items`, each element's.
    public var name: String?
    /// `namespace`: the namespace URI the element is in.
    public var namespace: String?
    /// `prefix`: the prefix the name is written with (bound to ``namespace``).
    public var prefix: String?
    /// `attribute`: a property written as an attribute of its parent element.
    public var attribute: Bool
    /// `wrapped`: an array's elements inside one element named after the array.
    public var wrapped: Bool

    /// The keys an `xml` object may have (besides `x-` extensions).
    package static let keys: Set<String> = ["name", "namespace", "prefix", "attribute", "wrapped"]

    /// Creates an `xml` object.
    public init(
        name: String? = nil, namespace: String? = nil, prefix: String? = nil, attribute: Bool = false,
        wrapped: Bool = false
    ) {
        self.name = name
        self.namespace = namespace
        self.prefix = prefix
        self.attribute = attribute
        self.wrapped = wrapped
    }
}
