import APISchema
import JSONKit

/// Makes a JSON value valid against a schema, deterministically (the generator's seed) and
/// within fixed bounds: nesting is cut off at ``maximumDepth``, arrays hold at most
/// ``maximumItems`` elements, and a whole body at most ``maximumNodes`` values, whatever the
/// schema asks for.
struct BodyGenerator {
    /// How deep values nest; deeper, optional properties and array elements are left out.
    static let maximumDepth = 6
    /// The most elements an array gets (more only when `minItems` demands, up to 16).
    static let maximumItems = 2
    /// The values in one body after which objects and arrays are left empty.
    static let maximumNodes = 2000
    /// The most optional properties one object gets.
    static let maximumOptionalProperties = 64
    /// Past this depth even required members are cut short (a schema that requires itself).
    static let hardDepth = 16

    let contract: Contract
    var random: SeededGenerator
    private var nodes = 0

    init(contract: Contract, seed: String) {
        self.contract = contract
        random = SeededGenerator(seed: seed)
    }

    /// A value for the schema: its own example, enum or generated value.
    mutating func value(for schema: Schema, depth: Int = 0) -> JSONValue {
        nodes += 1
        guard depth < Self.hardDepth, var schema = contract.resolve(schema) else { return .null }
        if !schema.allOf.isEmpty { schema = contract.flattened(schema) }
        if let example = schema.examples.first { return example }
        if let value = schema.defaultValue { return value }
        if let first = schema.enumValues?.first { return first }
        if let branch = schema.anyOf.first { return value(for: branch, depth: depth + 1) }
        // Past the soft bounds only what the schema requires is made; past the node budget,
        // nothing more at all (a schema whose required members multiply stays bounded).
        let exhausted = depth >= Self.maximumDepth || nodes >= Self.maximumNodes / 2
        if nodes >= Self.maximumNodes {
            switch kind(of: schema) {
            case .object: return .object([:])
            case .array: return .array([])
            default: break
            }
        }
        if exhausted && schema.isNullable { return .null }
        switch kind(of: schema) {
        case .null: return .null
        case .boolean: return .bool(random.next() % 2 == 0)
        case .integer: return .int(integer(schema.limits))
        case .number: return JSONNumber(number(schema.limits)).map(JSONValue.number) ?? .int(0)
        case .string: return .string(string(schema))
        case .array: return array(schema, depth: depth, exhausted: exhausted)
        case .object: return object(schema, depth: depth, exhausted: exhausted)
        }
    }

    private func kind(of schema: Schema) -> JSONKind {
        if let kind = schema.nonNullTypes.first { return kind }
        if schema.types.contains(.null) { return .null }
        if !schema.properties.isEmpty { return .object }
        if schema.items != nil || !schema.prefixItems.isEmpty { return .array }
        if schema.limits.boundsNumbers { return .number }
        return .string
    }

    private mutating func integer(_ limits: SchemaLimits) -> Int64 {
        var low = limits.minimum.map { Int64(clamping: Int(($0).rounded(.up))) } ?? 1
        if let exclusive = limits.exclusiveMinimum { low = max(low, Int64(exclusive.rounded(.down)) + 1) }
        var high = limits.maximum.map { Int64(clamping: Int(($0).rounded(.down))) } ?? max(low, 0) + 1000
        if let exclusive = limits.exclusiveMaximum { high = min(high, Int64(exclusive.rounded(.up)) - 1) }
        guard low <= high else { return low }
        var value = low + Int64(random.next() % UInt64(min(high - low, 1000) + 1))
        if let step = limits.multipleOf, step >= 1, step.rounded() == step {
            let multiple = Int64(step)
            value = ((value + multiple - 1) / multiple) * multiple
            if value > high { value = ((low + multiple - 1) / multiple) * multiple }
        }
        return value
    }

    private mutating func number(_ limits: SchemaLimits) -> Double {
        if limits.multipleOf != nil { return Double(integer(limits)) }
        let low = limits.minimum ?? limits.exclusiveMinimum.map { $0 + 0.5 } ?? 0
        let high = limits.maximum ?? limits.exclusiveMaximum.map { $0 - 0.5 } ?? low + 100
        guard low < high else { return low }
        let steps = Double(random.next() % 100) / 100
        return ((low + (high - low) * steps) * 100).rounded(.down) / 100
    }

    private mutating func string(_ schema: Schema) -> String {
        var text: String
        switch schema.format {
        case "date-time": text = "2024-05-0\(random.next() % 9 + 1)T12:00:00Z"
        case "date": text = "2024-05-0\(random.next() % 9 + 1)"
        case "time": text = "12:00:00Z"
        case "uuid": text = uuid()
        case "email": text = "user\(random.next() % 100)@example.com"
        case "uri", "url": text = "https://example.com/\(random.next() % 100)"
        case "hostname": text = "host\(random.next() % 100).example.com"
        case "ipv4": text = "192.0.2.\(random.next() % 250 + 1)"
        case "ipv6": text = "2001:db8::\(random.next() % 250 + 1)"
        case "byte": text = "cGV0a2l0"
        default: text = "string"
        }
        let minimum = min(schema.limits.minLength ?? 0, 4096)
        if text.count < minimum { text += String(repeating: "x", count: minimum - text.count) }
        if let maximum = schema.limits.maxLength, text.count > maximum { text = String(text.prefix(max(maximum, 0))) }
        return text
    }

    private mutating func uuid() -> String {
        let hex = Array("0123456789abcdef")
        var digits = (0..<32).map { _ in hex[Int(random.next() % 16)] }
        digits[12] = "4"
        digits[16] = "8"
        let text = String(digits)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(text.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    private mutating func array(_ schema: Schema, depth: Int, exhausted: Bool) -> JSONValue {
        let minimum = min(schema.limits.minItems ?? 0, 16)
        var count = exhausted ? minimum : max(minimum, Self.maximumItems)
        if let maximum = schema.limits.maxItems { count = min(count, max(maximum, 0)) }
        var elements: [JSONValue] = []
        for index in 0..<count {
            let element =
                index < schema.prefixItems.count ? schema.prefixItems[index] : (schema.items ?? Schema())
            let next = value(for: element, depth: depth + 1)
            if schema.limits.uniqueItems && elements.contains(next) { continue }
            elements.append(next)
        }
        return .array(elements)
    }

    private mutating func object(_ schema: Schema, depth: Int, exhausted: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = []
        var optional = 0
        for property in schema.properties where !property.schema.writeOnly {
            if !schema.required.contains(property.name) {
                guard !exhausted, optional < Self.maximumOptionalProperties else { continue }
                optional += 1
            }
            members.append((property.name, value(for: property.schema, depth: depth + 1)))
        }
        for name in schema.required where !members.contains(where: { $0.0 == name }) {
            members.append((name, .string("string")))
        }
        return .object(JSONObject(members))
    }
}
