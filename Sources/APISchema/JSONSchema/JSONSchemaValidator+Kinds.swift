import JSONKit
import LinearRegex

/// The keywords that apply to one kind of value (strings, numbers, arrays, objects).
extension JSONSchemaValidator {
    func checkString(_ key: String, _ keyword: JSONValue, _ text: String, _ fail: (String) -> Void) {
        let length = text.unicodeScalars.count
        switch key {
        case "minLength": if length < Int(keyword.intValue ?? 0) { fail("shorter than \(keyword.intValue ?? 0)") }
        case "maxLength": if length > Int(keyword.intValue ?? 0) { fail("longer than \(keyword.intValue ?? 0)") }
        case "pattern":
            if let pattern = keyword.stringValue, let regex = regexes[pattern], !regex.wholeMatches(text) {
                fail("'\(JSONSchemaValidator.excerpt(text))' does not match '\(pattern)'")
            }
        default: break
        }
    }

    func checkNumber(
        _ key: String, _ keyword: JSONValue, _ schema: JSONObject, _ number: Double, _ fail: (String) -> Void
    ) {
        let limit = keyword.doubleValue
        switch key {
        case "minimum":
            let exclusive = schema["exclusiveMinimum"]?.boolValue == true
            if let limit, exclusive ? number <= limit : number < limit { fail("\(number) is below \(limit)") }
        case "maximum":
            let exclusive = schema["exclusiveMaximum"]?.boolValue == true
            if let limit, exclusive ? number >= limit : number > limit { fail("\(number) is above \(limit)") }
        case "exclusiveMinimum": if let limit, number <= limit { fail("\(number) is not above \(limit)") }
        case "exclusiveMaximum": if let limit, number >= limit { fail("\(number) is not below \(limit)") }
        case "multipleOf":
            if let limit {
                let quotient = number / limit
                if !quotient.isFinite || abs(quotient - quotient.rounded()) > 1e-9 {
                    fail("\(number) is not a multiple of \(limit)")
                }
            }
        default: break
        }
    }

    func checkArray(
        _ key: String, _ keyword: JSONValue, _ elements: [JSONValue], at path: String, depth: Int, _ walk: inout Walk
    ) {
        switch key {
        case "minItems":
            if elements.count < Int(keyword.intValue ?? 0) {
                walk.errors.append("\(path): fewer than \(keyword) items")
            }
        case "maxItems":
            if elements.count > Int(keyword.intValue ?? 0) { walk.errors.append("\(path): more than \(keyword) items") }
        case "uniqueItems":
            guard keyword.boolValue == true else { return }
            walk.steps -= elements.count * elements.count / 2
            guard walk.steps > 0 else { return }
            for index in elements.indices where elements[..<index].contains(where: { Self.equal($0, elements[index]) })
            {
                walk.errors.append("\(path): the items are not unique")
                return
            }
        case "items":
            for (index, element) in elements.enumerated() {
                validate(element, against: keyword, at: "\(path)[\(index)]", depth: depth + 1, &walk)
                if walk.done { return }
            }
        default: break
        }
    }

    func checkObject(
        _ key: String, _ keyword: JSONValue, _ schema: JSONObject, _ object: JSONObject, at path: String, depth: Int,
        _ walk: inout Walk
    ) {
        switch key {
        case "required":
            for name in keyword.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
                walk.errors.append("\(path): the required property '\(name)' is missing")
                if walk.done { return }
            }
        case "minProperties":
            if object.count < Int(keyword.intValue ?? 0) { walk.errors.append("\(path): too few properties") }
        case "maxProperties":
            if object.count > Int(keyword.intValue ?? 0) { walk.errors.append("\(path): too many properties") }
        case "properties":
            guard case .object(let properties) = keyword else { return }
            for property in properties.members {
                guard let member = object[property.key] else { continue }
                validate(member, against: property.value, at: "\(path).\(property.key)", depth: depth + 1, &walk)
                if walk.done { return }
            }
        case "additionalProperties":
            let declared = Set(
                schema["properties"].flatMap { value -> [String]? in
                    if case .object(let properties) = value { return properties.keys }
                    return nil
                } ?? [])
            for member in object.members where !declared.contains(member.key) {
                if case .bool(false) = keyword {
                    walk.errors.append("\(path): the property '\(member.key)' is not allowed")
                } else {
                    validate(member.value, against: keyword, at: "\(path).\(member.key)", depth: depth + 1, &walk)
                }
                if walk.done { return }
            }
        default: break
        }
    }

    static func hasType(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value.kind) {
        case ("number", .integer): true
        default: value.kind.rawValue == type
        }
    }

    /// JSON Schema's equality: numbers by value, objects whatever their key order.
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, _), (.number, _):
            guard let left = lhs.doubleValue, let right = rhs.doubleValue else { return false }
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.members.allSatisfy { member in right[member.key].map { equal(member.value, $0) } ?? false }
        default: return lhs == rhs
        }
    }

    static func excerpt(_ value: JSONValue) -> String {
        excerpt(value.serialized())
    }

    /// Text for a one-line message: newlines as spaces, at most 80 characters.
    static func excerpt(_ text: String) -> String {
        let head = String(String(text.prefix(81)).map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        return head.count > 80 ? String(head.prefix(77)) + "..." : head
    }
}
