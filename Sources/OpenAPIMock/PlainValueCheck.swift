import APISchema
import JSONKit
import LinearRegex

/// A quick pass for a parameter whose schema is one plain type (integer, number, string or
/// Boolean) with nothing but `enum`, numeric bounds, length bounds and `pattern`: it says only that a
/// value certainly passes; any other value, and any other schema, goes to the one validator,
/// which also says why it fails. The path, query and header values of most operations are
/// such, and skip the validator's walk.
struct PlainValueCheck: Sendable {
    let kind: JSONKind
    let limits: SchemaLimits
    let enumValues: [JSONValue]?
    /// The pattern as the validator matches it.
    let pattern: LinearTimeRegex?

    /// The check, or nil when the schema is more than one plain type with those bounds.
    init?(_ schema: Schema) {
        guard schema.reference == nil, schema.anyOf.isEmpty, schema.allOf.isEmpty, schema.not == nil,
            schema.format == nil, schema.properties.isEmpty, schema.prefixItems.isEmpty, schema.items == nil,
            schema.types.count == 1, let kind = schema.types.first,
            [.integer, .number, .string, .boolean].contains(kind)
        else { return nil }
        var bounds = SchemaLimits()
        bounds.minimum = schema.limits.minimum
        bounds.maximum = schema.limits.maximum
        bounds.exclusiveMinimum = schema.limits.exclusiveMinimum
        bounds.exclusiveMaximum = schema.limits.exclusiveMaximum
        bounds.minLength = schema.limits.minLength
        bounds.maxLength = schema.limits.maxLength
        bounds.pattern = schema.limits.pattern
        // Any other keyword (a multiple) is the validator's.
        guard bounds == schema.limits else { return nil }
        if let source = schema.limits.pattern {
            guard let compiled = ValidationPlan.searching(source) else { return nil }
            pattern = compiled
        } else {
            pattern = nil
        }
        self.kind = kind
        limits = schema.limits
        enumValues = schema.enumValues
    }

    /// Whether the value certainly passes the schema.
    func passes(_ value: JSONValue) -> Bool {
        if let enumValues, !enumValues.contains(value) { return false }
        switch (kind, value) {
        case (.boolean, .bool): return true
        case (.string, .string(let text)):
            let length = text.unicodeScalars.count
            guard length >= (limits.minLength ?? 0), length <= (limits.maxLength ?? Int.max) else { return false }
            guard let pattern else { return true }
            return text.utf8.count <= ValidationPlan.patternSubjectLimit && pattern.wholeMatches(text)
        case (.integer, .int(let number)): return within(Double(number))
        case (.number, .int(let number)): return within(Double(number))
        case (.number, .number(let number)): return within(number.doubleValue)
        default: return false
        }
    }

    private func within(_ number: Double) -> Bool {
        if let minimum = limits.minimum, number < minimum { return false }
        if let maximum = limits.maximum, number > maximum { return false }
        if let minimum = limits.exclusiveMinimum, number <= minimum { return false }
        if let maximum = limits.exclusiveMaximum, number >= maximum { return false }
        return true
    }
}
