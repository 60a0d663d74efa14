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
    /// Whether the branches of ``anyOf`` were written as `oneOf`: a value must match exactly one
    /// of them (unless a `discriminator` names its branch, which then decides alone).
    public var branchesExclusive = false
    /// `enum`: the allowed values.
    public var enumValues: [JSONValue]?
    /// `format`: `date-time`, `uri`, `uuid`, `int64`, ...
    public var format: String?
    /// `description`.
    public var description: String?
    /// `examples`.
    public var examples: [JSONValue]
    /// `default`. A parameter's is its ``ContractParameter/defaultValue`` instead.
    public var defaultValue: JSONValue?
    /// `x-swift-type`: the Swift type this schema was reflected from (`PetJsonModel`).
    public var swiftType: String?
    /// `x-swift-property`: the Swift property it was reflected from (`PetJsonModel.vetId: Int?`).
    public var swiftProperty: String?
    /// `x-faker`: the Faker generator a mock's strings follow (`internet.email`), as written.
    public var faker: String?
    /// `allOf` parts kept as written because one of them is a `$ref` (inline-only parts are
    /// merged when read); ``Contract/flattened(_:)`` merges them with the referenced schemas.
    public var allOf: [Schema] = []
    /// `discriminator` of a `oneOf`/`anyOf`: which property names the branch.
    public var discriminator: Discriminator?
    /// Numeric, string and array bounds (`minimum`, `maxLength`, `pattern`, `minItems`, ...).
    public var limits = SchemaLimits()
    /// `prefixItems`: the schemas of the first elements, in order (``items`` then holds for
    /// the rest).
    public var prefixItems: [Schema] = []
    /// `readOnly`: sent by the server only.
    public var readOnly = false
    /// `writeOnly`: sent by the client only; never in a response.
    public var writeOnly = false
    /// `xml`: how a value is written as XML (its element's name, attribute, wrapping, namespace).
    public var xml: SchemaXML?
    private var itemsBox: SchemaBox?
    private var notBox: SchemaBox?
    private var containsBox: SchemaBox?

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

    /// `not`: the value must not match this schema.
    public var not: Schema? {
        get { notBox?.value }
        set { notBox = newValue.map(SchemaBox.init) }
    }

    /// `contains`: an array must hold at least ``SchemaLimits/minContains`` (1 when not set)
    /// and at most ``SchemaLimits/maxContains`` elements valid against this schema.
    public var contains: Schema? {
        get { containsBox?.value }
        set { containsBox = newValue.map(SchemaBox.init) }
    }

    /// This schema with an `allOf` part's constraints added: properties and `required`
    /// together, `type`s intersected, the rest taken from the part where this one says nothing.
    public func merged(with part: Schema) -> Schema {
        if self == Schema() { return part }
        if part == Schema() { return self }
        var merged = self
        if merged.types.isEmpty {
            merged.types = part.types
        } else if !part.types.isEmpty {
            merged.types = merged.types.compactMap { kind -> JSONKind? in
                if part.types.contains(kind) { return kind }
                if kind == .number && part.types.contains(.integer) { return .integer }
                if kind == .integer && part.types.contains(.number) { return .integer }
                return nil
            }
            // No kind in common: no value is valid (`not` an empty schema), not any value.
            if merged.types.isEmpty { merged.not = Schema() }
        }
        for property in part.properties {
            if let index = merged.properties.firstIndex(where: { $0.name == property.name }) {
                let existing = merged.properties[index].schema
                if existing == Schema() || property.schema == Schema() {
                    merged.properties[index].schema = existing.merged(with: property.schema)
                } else if existing.reference == nil && existing.allOf.isEmpty && property.schema.reference == nil
                    && property.schema.allOf.isEmpty
                {
                    merged.properties[index].schema = existing.merged(with: property.schema)
                } else {
                    merged.properties[index].schema.allOf.append(property.schema)
                }
            } else {
                merged.properties.append(property)
            }
        }
        merged.required += part.required.filter { !merged.required.contains($0) }
        if merged.items == nil { merged.items = part.items }
        if merged.prefixItems.isEmpty { merged.prefixItems = part.prefixItems }
        if merged.format == nil { merged.format = part.format }
        if let values = merged.enumValues, let others = part.enumValues {
            // Both apply: only the values both allow.
            merged.enumValues = values.filter { value in others.contains { $0.isEquivalent(to: value) } }
        } else if merged.enumValues == nil {
            merged.enumValues = part.enumValues
        }
        if merged.swiftType == nil { merged.swiftType = part.swiftType }
        if merged.faker == nil { merged.faker = part.faker }
        if merged.defaultValue == nil { merged.defaultValue = part.defaultValue }
        if merged.additionalProperties == nil { merged.additionalProperties = part.additionalProperties }
        if merged.anyOf.isEmpty {
            merged.anyOf = part.anyOf
            merged.branchesExclusive = part.branchesExclusive
        }
        if merged.discriminator == nil { merged.discriminator = part.discriminator }
        if merged.xml == nil { merged.xml = part.xml }
        if merged.not == nil { merged.not = part.not }
        merged.limits = merged.limits.merged(with: part.limits)
        // `minContains`/`maxContains` count the elements of their own `contains`: a part's
        // counts go with its `contains`; the same `contains` in both keeps the stricter counts
        // (merged above); two different ones keep this one's (one `contains` per schema).
        switch (contains, part.contains) {
        case (nil, nil): break
        case (.some, nil):
            merged.limits.minContains = limits.minContains
            merged.limits.maxContains = limits.maxContains
        case (nil, .some(let theirs)):
            merged.contains = theirs
            merged.limits.minContains = part.limits.minContains
            merged.limits.maxContains = part.limits.maxContains
        case (.some(let mine), .some(let theirs)):
            if mine != theirs {
                merged.limits.minContains = limits.minContains
                merged.limits.maxContains = limits.maxContains
            }
        }
        merged.readOnly = merged.readOnly || part.readOnly
        merged.writeOnly = merged.writeOnly || part.writeOnly
        merged.allOf += part.allOf
        return merged
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

    package static let componentPrefix = "#/components/schemas/"

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

/// `discriminator`: the property whose value names the `oneOf`/`anyOf` branch.
public struct Discriminator: Sendable, Hashable {
    /// `propertyName`.
    public var propertyName: String
    /// `mapping`: value to `$ref`; without an entry a value names the component of that name.
    public var mapping: [String: String]

    /// Creates a discriminator.
    public init(propertyName: String, mapping: [String: String] = [:]) {
        self.propertyName = propertyName
        self.mapping = mapping
    }
}

/// The bounds of a schema: numbers, string lengths and patterns, array sizes.
public struct SchemaLimits: Sendable, Hashable {
    /// `minimum`.
    public var minimum: Double?
    /// `maximum`.
    public var maximum: Double?
    /// `exclusiveMinimum` (3.1's number form; 3.0's `true` moves `minimum` here when read).
    public var exclusiveMinimum: Double?
    /// `exclusiveMaximum`, likewise.
    public var exclusiveMaximum: Double?
    /// `multipleOf`.
    public var multipleOf: Double?
    /// `minLength`, in Unicode code points.
    public var minLength: Int?
    /// `maxLength`.
    public var maxLength: Int?
    /// `pattern`: an ECMA-262 regular expression the string must contain a match of.
    public var pattern: String?
    /// `minItems`.
    public var minItems: Int?
    /// `maxItems`.
    public var maxItems: Int?
    /// `uniqueItems`.
    public var uniqueItems = false
    /// `minContains`: how many elements at least must be valid against ``Schema/contains``
    /// (1 when not set); without `contains` it says nothing.
    public var minContains: Int?
    /// `maxContains`: how many elements at most may be valid against ``Schema/contains``.
    public var maxContains: Int?
    /// `minProperties`.
    public var minProperties: Int?
    /// `maxProperties`.
    public var maxProperties: Int?

    /// Creates bounds.
    public init() {}

    /// Whether no bound is set.
    public var isEmpty: Bool { self == SchemaLimits() }

    /// Whether a number bound is set.
    public var boundsNumbers: Bool {
        minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil || multipleOf != nil
    }

    /// Each bound from this one, else from `other`.
    /// Both bounds at once (an `allOf`): the stricter of two of a kind, else the one set. Two
    /// different `pattern`s or unrelated `multipleOf`s keep this one's.
    func merged(with other: SchemaLimits) -> SchemaLimits {
        func larger<T: Comparable>(_ lhs: T?, _ rhs: T?) -> T? {
            guard let lhs, let rhs else { return lhs ?? rhs }
            return Swift.max(lhs, rhs)
        }
        func smaller<T: Comparable>(_ lhs: T?, _ rhs: T?) -> T? {
            guard let lhs, let rhs else { return lhs ?? rhs }
            return Swift.min(lhs, rhs)
        }
        var merged = self
        merged.minimum = larger(minimum, other.minimum)
        merged.maximum = smaller(maximum, other.maximum)
        merged.exclusiveMinimum = larger(exclusiveMinimum, other.exclusiveMinimum)
        merged.exclusiveMaximum = smaller(exclusiveMaximum, other.exclusiveMaximum)
        merged.multipleOf = multipleOf ?? other.multipleOf
        if let mine = multipleOf, let theirs = other.multipleOf, theirs > mine,
            (theirs / mine).rounded() == theirs / mine
        {
            merged.multipleOf = theirs
        }
        merged.minLength = larger(minLength, other.minLength)
        merged.maxLength = smaller(maxLength, other.maxLength)
        merged.pattern = pattern ?? other.pattern
        merged.minItems = larger(minItems, other.minItems)
        merged.maxItems = smaller(maxItems, other.maxItems)
        merged.uniqueItems = uniqueItems || other.uniqueItems
        merged.minContains = larger(minContains, other.minContains)
        merged.maxContains = smaller(maxContains, other.maxContains)
        merged.minProperties = larger(minProperties, other.minProperties)
        merged.maxProperties = smaller(maxProperties, other.maxProperties)
        return merged
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
