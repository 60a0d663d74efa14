import JSONKit

/// The JSON Schema subset a contract uses for response bodies (OpenAPI 3.1 schema objects).
///
/// A schema is a value; nested schemas of `items` and `additionalProperties` are boxed so the
/// type can contain itself. `$ref`s stay references here and are resolved against the
/// ``Contract``'s components when validating.
public struct Schema: Sendable, Hashable {
    /// The allowed kinds (`type`); empty allows any kind. Nullable is `null` among them.
    public var types: [JSONKind]
    /// A `$ref` such as `#/components/schemas/PetJsonModel`; the other fields are then unused.
    public var reference: String?
    /// The object's properties in order.
    public var properties: [SchemaProperty]
    /// The names of properties that must be present.
    public var required: [String]
    /// Whether and how members not listed in ``properties`` are allowed.
    public var additionalProperties: AdditionalProperties?
    /// `anyOf`: the value must match at least one.
    public var anyOf: [Schema]
    /// `enum`: the allowed values.
    public var enumValues: [JSONValue]?
    /// `format`: `date-time`, `uri`, `uuid`, `int64`, ...
    public var format: String?
    /// `description`.
    public var description: String?
    /// `examples`.
    public var examples: [JSONValue]
    /// `x-swift-type`: the Swift type this schema was reflected from (`PetJsonModel`).
    public var swiftType: String?
    /// `x-swift-property`: the Swift property it was reflected from (`PetJsonModel.vetId: Int?`).
    public var swiftProperty: String?
    private var itemsBox: SchemaBox?

    /// Creates a schema.
    public init(
        types: [JSONKind] = [], reference: String? = nil, properties: [SchemaProperty] = [], required: [String] = [],
        additionalProperties: AdditionalProperties? = nil, items: Schema? = nil, anyOf: [Schema] = [],
        enumValues: [JSONValue]? = nil, format: String? = nil, description: String? = nil, examples: [JSONValue] = [],
        swiftType: String? = nil, swiftProperty: String? = nil
    ) {
        self.types = types
        self.reference = reference
        self.properties = properties
        self.required = required
        self.additionalProperties = additionalProperties
        self.itemsBox = items.map(SchemaBox.init)
        self.anyOf = anyOf
        self.enumValues = enumValues
        self.format = format
        self.description = description
        self.examples = examples
        self.swiftType = swiftType
        self.swiftProperty = swiftProperty
    }

    /// A schema that is only a `$ref` to a named component schema.
    public static func reference(toComponent name: String) -> Schema {
        Schema(reference: "#/components/schemas/\(name)")
    }

    /// `items`: the schema of every array element.
    public var items: Schema? {
        get { itemsBox?.value }
        set { itemsBox = newValue.map(SchemaBox.init) }
    }

    /// Whether `null` is allowed (`type` lists `null`).
    public var isNullable: Bool {
        types.contains(.null)
    }

    /// The kinds other than `null`.
    public var nonNullTypes: [JSONKind] {
        types.filter { $0 != .null }
    }

    /// The component name a `$ref` points at, when it points into `#/components/schemas/`.
    public var referencedComponent: String? {
        guard let reference, reference.hasPrefix(Schema.componentPrefix) else { return nil }
        return String(reference.dropFirst(Schema.componentPrefix.count))
    }

    static let componentPrefix = "#/components/schemas/"

    /// Whether a JSON value of this kind is allowed by ``types`` (an integer is also a number).
    public func allows(_ kind: JSONKind) -> Bool {
        if types.isEmpty { return true }
        if types.contains(kind) { return true }
        return kind == .integer && types.contains(.number)
    }

    /// The property with this name.
    public func property(named name: String) -> SchemaProperty? {
        properties.first { $0.name == name }
    }

    /// A short text for the kinds allowed: `integer or null`, `array`, `any value`.
    public var typeText: String {
        if reference != nil { return referencedComponent ?? "a referenced schema" }
        if !anyOf.isEmpty { return anyOf.map(\.typeText).joined(separator: " or ") }
        if let enumValues { return "one of " + enumValues.map { $0.serialized() }.joined(separator: ", ") }
        if types.isEmpty { return "any value" }
        return types.map { kind in
            if let format, kind == .string { return "string (\(format))" }
            return kind.rawValue
        }.joined(separator: " or ")
    }
}

/// One named property of an object schema.
public struct SchemaProperty: Sendable, Hashable {
    /// The JSON key.
    public var name: String
    /// Its schema.
    public var schema: Schema

    /// Creates a property.
    public init(name: String, schema: Schema) {
        self.name = name
        self.schema = schema
    }
}

/// `additionalProperties`: allowed, forbidden, or each checked against a schema.
public indirect enum AdditionalProperties: Sendable, Hashable {
    /// `true`.
    case allowed
    /// `false`.
    case forbidden
    /// A schema for every member not listed in `properties`.
    case schema(Schema)
}

/// Lets ``Schema`` contain itself.
final class SchemaBox: Sendable, Hashable {
    let value: Schema

    init(_ value: Schema) {
        self.value = value
    }

    static func == (lhs: SchemaBox, rhs: SchemaBox) -> Bool {
        lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
