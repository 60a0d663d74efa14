import JSONKit
import LinearRegex

/// A JSON Schema checked when the stub loads (``JSONSchemaCheck``), applied to values: the
/// errors a value has, all of them (for the near-miss report) or the first (for serving), from
/// the same walk. Bounded: schemas nest at most 64 deep, `$ref` chains count toward that depth,
/// and one validation takes at most ``maximumSteps`` steps (past that the value does not match).
package struct JSONSchemaValidator: Sendable {
    let schema: JSONValue
    let regexes: [String: LinearTimeRegex]
    /// How many properties the schema defines, anywhere: WireMock's distance is the number of
    /// errors over it.
    let propertyCount: Int
    static let maximumSteps = 100_000

    package init(_ schema: JSONValue) throws(JSONSchemaError) {
        self.schema = schema
        regexes = try JSONSchemaCheck.check(schema)
        propertyCount = Self.countProperties(schema, depth: 0)
    }

    private static func countProperties(_ schema: JSONValue, depth: Int) -> Int {
        guard depth < JSONSchemaCheck.maximumDepth else { return 0 }
        switch schema {
        case .object(let object):
            let own = object["properties"].flatMap { value -> Int? in
                if case .object(let properties) = value { return properties.count }
                return nil
            }
            return (own ?? 0) + object.members.reduce(0) { $0 + countProperties($1.value, depth: depth + 1) }
        case .array(let elements): return elements.reduce(0) { $0 + countProperties($1, depth: depth + 1) }
        default: return 0
        }
    }

    /// One walk's state: the errors found, whether to stop at the first, the steps left.
    struct Walk {
        var errors: [String] = []
        let stopAtFirst: Bool
        var steps = JSONSchemaValidator.maximumSteps

        var done: Bool { (stopAtFirst && !errors.isEmpty) || steps <= 0 }
    }

    /// The value's errors against the schema: the first only when `stopAtFirst`.
    package func errors(_ value: JSONValue, stopAtFirst: Bool) -> [String] {
        var walk = Walk(stopAtFirst: stopAtFirst)
        validate(value, against: schema, at: "$", depth: 0, &walk)
        if walk.steps <= 0 && walk.errors.isEmpty { walk.errors.append("validation took too many steps") }
        return walk.errors
    }

    /// The errors of a request's text (`json`: the text already parsed, when it was): the text as
    /// JSON, or as a JSON string when it is not JSON; a number, Boolean or null that fails is
    /// tried again as the string it was written as (WireMock's coercion).
    package func errors(_ text: String, json: JSONValue?, stopAtFirst: Bool) -> [String] {
        let value = json ?? (try? JSONValue(parsing: text)) ?? .string(text)
        let found = errors(value, stopAtFirst: stopAtFirst)
        switch value {
        case .int, .number, .bool, .null: return found.isEmpty ? found : errors(.string(text), stopAtFirst: stopAtFirst)
        default: return found
        }
    }

    /// WireMock's distance: the errors over the properties the schema defines (1 when it
    /// defines none).
    package func distance(_ text: String) -> Double {
        let count = errors(text, json: nil, stopAtFirst: false).count
        guard propertyCount > 0 else { return count == 0 ? 0 : 1 }
        return min(1, Double(count) / Double(propertyCount))
    }

    /// Whether the value is valid against a subschema, sharing the walk's step budget.
    private func isValid(
        _ value: JSONValue, _ schema: JSONValue, at path: String, depth: Int, _ walk: inout Walk
    ) -> Bool {
        var inner = Walk(stopAtFirst: true, steps: walk.steps)
        validate(value, against: schema, at: path, depth: depth, &inner)
        walk.steps = inner.steps
        return inner.errors.isEmpty && inner.steps > 0
    }

    func validate(_ value: JSONValue, against schema: JSONValue, at path: String, depth: Int, _ walk: inout Walk) {
        walk.steps -= 1
        guard !walk.done else { return }
        guard depth <= JSONSchemaCheck.maximumDepth else {
            walk.errors.append("\(path): the schema's references go deeper than \(JSONSchemaCheck.maximumDepth) levels")
            return
        }
        switch schema {
        case .bool(let accepts):
            if !accepts { walk.errors.append("\(path): no value is allowed here") }
            return
        case .object(let object):
            for member in object.members {
                check(member.key, member.value, object, value, at: path, depth: depth, &walk)
                if walk.done { return }
            }
        default: return
        }
    }

    private func check(
        _ key: String, _ keyword: JSONValue, _ schema: JSONObject, _ value: JSONValue, at path: String, depth: Int,
        _ walk: inout Walk
    ) {
        func fail(_ message: String) { walk.errors.append("\(path): \(message)") }
        switch key {
        case "$ref":
            if let reference = keyword.stringValue, let target = JSONSchemaCheck.resolve(reference, in: self.schema) {
                validate(value, against: target, at: path, depth: depth + 1, &walk)
            }
        case "type":
            let names = keyword.arrayValue?.compactMap(\.stringValue) ?? keyword.stringValue.map { [$0] } ?? []
            if !names.contains(where: { Self.hasType(value, $0) }) {
                fail("expected \(names.joined(separator: " or ")), found \(value.kind)")
            }
        case "enum":
            if !(keyword.arrayValue ?? []).contains(where: { Self.equal($0, value) }) {
                fail("\(Self.excerpt(value)) is not one of \(Self.excerpt(keyword))")
            }
        case "const": if !Self.equal(keyword, value) { fail("expected \(Self.excerpt(keyword))") }
        case "not":
            if isValid(value, keyword, at: path, depth: depth + 1, &walk) { fail("matches the schema under 'not'") }
        case "allOf":
            for part in keyword.arrayValue ?? [] {
                validate(value, against: part, at: path, depth: depth + 1, &walk)
                if walk.done { return }
            }
        case "anyOf":
            let parts = keyword.arrayValue ?? []
            if !parts.contains(where: { isValid(value, $0, at: path, depth: depth + 1, &walk) }) {
                fail("matches none of the 'anyOf' schemas")
            }
        case "oneOf":
            let count = (keyword.arrayValue ?? []).filter { isValid(value, $0, at: path, depth: depth + 1, &walk) }
                .count
            if count != 1 { fail("matches \(count) of the 'oneOf' schemas, not exactly one") }
        case "format":
            if case .string(let text) = value, let format = keyword.stringValue,
                !FormatCheck.matches(text, format: format)
            {
                fail("'\(JSONSchemaValidator.excerpt(text))' is not a valid \(format)")
            }
        default:
            switch value {
            case .string(let text): checkString(key, keyword, text, fail)
            case .int, .number: checkNumber(key, keyword, schema, value.doubleValue ?? 0, fail)
            case .array(let elements): checkArray(key, keyword, elements, at: path, depth: depth, &walk)
            case .object(let object): checkObject(key, keyword, schema, object, at: path, depth: depth, &walk)
            default: break
            }
        }
    }
}
