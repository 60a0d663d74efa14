import APISchema
import HTTPCore
import JSONKit

@testable import OpenAPIMock

/// Satisfiable JSON Schemas drawn from a seed: composition (`allOf`, `oneOf`, `anyOf`),
/// bounds, formats, patterns, nullable types, arrays and objects, nested a few levels.
struct RandomSchema {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: "random schema", number: seed)
    }

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    static let formats = ["date-time", "date", "time", "email", "uri", "hostname", "ipv4", "ipv6", "uuid", "byte"]
    static let patterns = [
        "^[a-z]{3,8}$", "^[A-Z][a-z]+$", "[0-9]+", "^(foo|bar)-[0-9]{2}$", "^\\w+@\\w+\\.com$", "^[a-f0-9]{8}$",
        "^v[0-9]+(\\.[0-9]+){0,2}$", "ab?c*", "^[^\\s]+$", "(?i)^(yes|no)$",
    ]

    /// Components every random document has: a recursive tree and two discriminated branches.
    static let components = """
        {"Node": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "minLength": 1},
           "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
         "Cat": {"type": "object", "required": ["kind", "lives"],
           "properties": {"kind": {"type": "string"}, "lives": {"type": "integer", "minimum": 1, "maximum": 9}}},
         "Dog": {"type": "object", "required": ["kind"],
           "properties": {"kind": {"type": "string"}, "tricks": {"type": "array", "uniqueItems": true,
             "items": {"type": "string", "pattern": "^[a-z]{2,6}$"}}}}}
        """

    mutating func schema(depth: Int = 0) -> JSONValue {
        let pick = depth >= 3 ? below(6) : below(16)
        var schema: JSONObject
        switch pick {
        case 0, 1: schema = string()
        case 2: schema = integer()
        case 3: schema = number()
        case 4: schema = ["type": "boolean"]
        case 5: schema = chance(50) ? ["enum": ["a", 2, true, .null]] : ["const": .string("fixed")]
        case 6, 7: schema = object(depth: depth)
        case 8: schema = array(depth: depth)
        case 9:
            schema = [
                "allOf": [
                    .object(object(depth: depth, prefix: "p", plain: true)),
                    .object(object(depth: depth, prefix: "q", plain: true)),
                ]
            ]
        case 10:
            schema = [
                "oneOf": [
                    .object(string()), .object(integer()), .object(object(depth: depth, prefix: "o", required: true)),
                ]
            ]
        case 11: schema = ["anyOf": [self.schema(depth: depth + 1), self.schema(depth: depth + 1)]]
        case 12: schema = ["$ref": "#/components/schemas/Node"]
        case 13:
            var discriminator: JSONObject = ["propertyName": "kind"]
            if chance(50) { discriminator["mapping"] = ["c": "#/components/schemas/Cat", "d": "Dog"] }
            schema = [
                "oneOf": [["$ref": "#/components/schemas/Cat"], ["$ref": "#/components/schemas/Dog"]],
                "discriminator": .object(discriminator),
            ]
        case 14: schema = ["type": "integer", "minimum": 0, "maximum": 20, "not": ["multipleOf": 3]]
        default:
            schema = [
                "type": "array", "prefixItems": [.object(string()), .object(integer())],
                "items": ["type": "boolean"], "minItems": .int(Int64(below(4))),
            ]
        }
        if chance(15), case .string(let type)? = schema["type"] {
            schema["type"] = [.string(type), "null"]
        }
        return .object(schema)
    }

    mutating func string() -> JSONObject {
        var schema: JSONObject = ["type": "string"]
        switch below(4) {
        case 0: schema["format"] = .string(Self.formats[below(Self.formats.count)])
        case 1: schema["pattern"] = .string(Self.patterns[below(Self.patterns.count)])
        case 2:
            let low = below(20)
            schema["minLength"] = .int(Int64(low))
            schema["maxLength"] = .int(Int64(low + below(10)))
        default:
            schema["pattern"] = "^[a-z]+$"
            schema["minLength"] = .int(Int64(3 + below(5)))
            schema["maxLength"] = 12
        }
        return schema
    }

    mutating func integer() -> JSONObject {
        var schema: JSONObject = ["type": "integer"]
        let low = Int64(below(200)) - 100
        if chance(50) { schema[chance(50) ? "minimum" : "exclusiveMinimum"] = .int(low) }
        if chance(50) { schema[chance(50) ? "maximum" : "exclusiveMaximum"] = .int(low + 20 + Int64(below(50))) }
        if chance(30) { schema["multipleOf"] = .int(Int64(1 + below(5))) }
        return schema
    }

    mutating func number() -> JSONObject {
        var schema: JSONObject = ["type": "number"]
        let low = Double(below(100)) / 4 - 10
        if chance(50) {
            schema[chance(50) ? "minimum" : "exclusiveMinimum"] = JSONNumber(low).map(JSONValue.number) ?? 0
        }
        if chance(50) {
            schema[chance(50) ? "maximum" : "exclusiveMaximum"] = JSONNumber(low + 5.5).map(JSONValue.number) ?? 6
        }
        if chance(30) { schema["multipleOf"] = [0.25, 0.5, 0.1, 3][below(4)] }
        return schema
    }

    /// `plain`: no bound on the members, as an `allOf` part (the other part's members would break it).
    mutating func object(depth: Int, prefix: String = "k", required: Bool = false, plain: Bool = false) -> JSONObject {
        var properties = JSONObject()
        var names: [JSONValue] = []
        for index in 0..<(below(4) + (required ? 1 : 0)) {
            let name = "\(prefix)\(index)"
            properties[name] = self.schema(depth: depth + 1)
            if required && index == 0 || chance(40) { names.append(.string(name)) }
        }
        var schema: JSONObject = ["type": "object", "properties": .object(properties)]
        if !names.isEmpty { schema["required"] = .array(names) }
        switch plain ? 3 : below(4) {
        case 0: schema["additionalProperties"] = false
        case 1:
            schema["additionalProperties"] = ["type": "integer"]
            schema["minProperties"] = .int(Int64(properties.count + below(2)))
        case 2: schema["maxProperties"] = .int(Int64(max(names.count, 1)))
        default: break
        }
        return schema
    }

    mutating func array(depth: Int) -> JSONObject {
        if chance(25) { return containing() }
        var schema: JSONObject = ["type": "array"]
        let unique = chance(30)
        schema["items"] = unique ? ["type": "integer", "minimum": 0] : self.schema(depth: depth + 1)
        if unique { schema["uniqueItems"] = true }
        let low = below(4)
        schema["minItems"] = .int(Int64(low))
        if chance(50) { schema["maxItems"] = .int(Int64(low + below(3))) }
        return schema
    }

    /// An array with `contains` (and maybe `minContains`/`maxContains`), satisfiable within
    /// its `items`, sizes and `uniqueItems`.
    mutating func containing() -> JSONObject {
        var schema: JSONObject = ["type": "array", "items": ["type": "integer", "minimum": 0, "maximum": 40]]
        let contains: [JSONValue] = [
            ["minimum": 30], ["multipleOf": 5], ["type": "integer", "maximum": 3], ["const": 7],
        ]
        let pick = below(contains.count)
        schema["contains"] = contains[pick]
        // `const` repeats one value: at most one element for uniqueItems.
        let unique = pick != 3 && chance(30)
        if unique { schema["uniqueItems"] = true }
        var wanted = 1
        if chance(60) {
            wanted = below(3)
            schema["minContains"] = .int(Int64(wanted))
        }
        if chance(50) { schema["maxContains"] = .int(Int64(max(wanted, 1) + below(2))) }
        let low = below(3)
        schema["minItems"] = .int(Int64(low))
        if chance(50) { schema["maxItems"] = .int(Int64(max(low, wanted) + below(3))) }
        return schema
    }
}
