import JSONKit

/// One matcher object of a request pattern, as WireMock writes it.
extension MappingDecoder {
    package static let operators = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "anything", "equalToJson",
        "matchesJsonPath", "binaryEqualTo", "and", "or", "not", "hasExactly", "includes", "before", "after",
        "equalToDateTime", "matchesJsonSchema", "equalToXml", "matchesXPath", "equalToNumber", "greaterThanNumber",
        "greaterThanEqualNumber", "lessThanNumber", "lessThanEqualNumber",
    ]
    private static let modifiers = [
        "caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements", "enablePlaceholders", "schemaVersion",
    ]
    /// The matchers that read each modifier.
    private static let modifierReaders: [String: [String]] = [
        "caseInsensitive": ["equalTo"], "ignoreArrayOrder": ["equalToJson"], "ignoreExtraElements": ["equalToJson"],
        "enablePlaceholders": ["equalToJson", "equalToXml"], "schemaVersion": ["matchesJsonSchema"],
    ]
    /// WireMock's JSON Schema versions.
    package static let schemaVersions = ["V4", "V6", "V7", "V201909", "V202012"]

    /// Decodes one matcher object such as `{"equalTo": "x", "caseInsensitive": true}`.
    package mutating func matcher(_ value: JSONValue, at path: JSONPath) -> StringMatcher? {
        guard let object = object(value, at: path) else { return nil }
        if object["expression"] != nil {
            // Only matchesJsonPath and matchesXPath take an expression (and remove it before
            // their sub-matcher is read): anywhere else it would be ignored.
            invalid(
                path.appending(key: "expression"), expected: "'expression' only inside matchesJsonPath or matchesXPath",
                found: "it beside a matcher", kind: .unknownField)
            return nil
        }
        let operatorMembers = object.members.filter {
            !Self.modifiers.contains($0.key) && !DateTimeSpec.optionKeys.contains($0.key)
                && !Self.xmlOptions.contains($0.key)
        }
        guard operatorMembers.count == 1, let member = operatorMembers.first else {
            if operatorMembers.isEmpty {
                invalid(
                    path, expected: "one matcher (\(Self.operators.joined(separator: ", ")))", found: "none",
                    kind: .missingField)
            } else {
                invalid(
                    path, expected: "one matcher",
                    found: operatorMembers.map { "'\($0.key)'" }.joined(separator: ", "))
            }
            return nil
        }
        for modifier in object.members where Self.modifiers.contains(modifier.key) {
            // A modifier beside a matcher that does not read it would be ignored (WireMock
            // ignores it too): refused, naming it, so `caseInsensitive` is never lost silently.
            let readers = Self.modifierReaders[modifier.key] ?? []
            guard readers.contains(member.key) else {
                invalid(
                    path.appending(key: modifier.key),
                    expected: "'\(modifier.key)' only beside \(readers.joined(separator: " or "))",
                    found: "it beside '\(member.key)'", kind: .unknownField)
                return nil
            }
            if modifier.key != "schemaVersion" { _ = bool(modifier.value, at: path.appending(key: modifier.key)) }
        }
        let here = path.appending(key: member.key)
        if let comparison = DateTimeSpec.Comparison(rawValue: member.key) {
            return dateTime(comparison, object, at: path)
        }
        if let option = object.members.first(where: { DateTimeSpec.optionKeys.contains($0.key) }) {
            invalid(
                path.appending(key: option.key),
                expected: "'\(option.key)' only beside before, after or equalToDateTime",
                found: "it beside '\(member.key)'", kind: .unknownField)
            return nil
        }
        let flag = { (name: String) in object[name]?.boolValue ?? false }
        guard xmlOptionsFit(object, operator: member.key, at: path) else { return nil }
        switch member.key {
        case "equalTo":
            return string(member.value, at: here).map { .equalTo($0, caseInsensitive: flag("caseInsensitive")) }
        case "contains": return string(member.value, at: here).map { .contains($0) }
        case "doesNotContain": return string(member.value, at: here).map { .doesNotContain($0) }
        case "matches": return string(member.value, at: here).map { .matches($0) }
        case "doesNotMatch": return string(member.value, at: here).map { .doesNotMatch($0) }
        case "absent":
            guard let present = bool(member.value, at: here) else { return nil }
            return present ? .absent : .anything
        case "anything": return .anything
        case "equalToJson":
            var json = member.value
            if case .string(let text) = member.value {
                do {
                    json = try JSONValue(parsing: text)
                } catch {
                    invalid(here, expected: "JSON text", found: "'\(text)' (\(error))", kind: .invalidPattern)
                    return nil
                }
            }
            return .equalToJson(
                json, ignoreArrayOrder: flag("ignoreArrayOrder"), ignoreExtraElements: flag("ignoreExtraElements"))
        case "matchesJsonPath": return jsonPathMatcher(member.value, at: here)
        case "matchesJsonSchema":
            var schema = member.value
            if case .string(let text) = member.value {
                do {
                    schema = try JSONValue(parsing: text)
                } catch {
                    invalid(here, expected: "a JSON Schema", found: "'\(text)' (\(error))", kind: .invalidPattern)
                    return nil
                }
            }
            var version: String?
            if let value = object["schemaVersion"] {
                version = string(value, at: path.appending(key: "schemaVersion"))
                if let name = version, !Self.schemaVersions.contains(name) {
                    invalid(
                        path.appending(key: "schemaVersion"),
                        expected: "one of " + Self.schemaVersions.joined(separator: ", "), found: "'\(name)'")
                    return nil
                }
            }
            return .matchesJsonSchema(schema, schemaVersion: version)
        case "binaryEqualTo":
            guard let text = string(member.value, at: here) else { return nil }
            guard let bytes = Base64.decode(text) else {
                invalid(here, expected: "base64 text", found: "'\(text)'")
                return nil
            }
            return .binaryEqualTo(bytes)
        case "and", "or", "hasExactly", "includes":
            guard case .array(let elements) = member.value else {
                wrongType(here, expected: "an array of matchers", member.value)
                return nil
            }
            var parts: [StringMatcher] = []
            for (index, element) in elements.enumerated() {
                guard let part = matcher(element, at: here.appending(index: index)) else { return nil }
                parts.append(part)
            }
            switch member.key {
            case "and": return .and(parts)
            case "or": return .or(parts)
            case "hasExactly": return .hasExactly(parts)
            default: return .includes(parts)
            }
        case "not": return matcher(member.value, at: here).map { .not($0) }
        case "equalToXml": return xmlMatcher(object, at: path)
        case "matchesXPath": return xpathMatcher(object, at: path)
        case let name where NumberComparison(rawValue: name) != nil:
            // WireMock takes the operand as a JSON number or as text holding one.
            let number: Double?
            switch member.value {
            case .int(let value): number = Double(value)
            case .number(let value): number = value.doubleValue.isFinite ? value.doubleValue : nil
            case .string(let text): number = NumberComparison.number(in: text[...])
            default: number = nil
            }
            guard let number, let comparison = NumberComparison(rawValue: name) else {
                wrongType(here, expected: "a number (or text holding one, such as \"2.5\")", member.value)
                return nil
            }
            return .number(comparison, number)
        default:
            invalid(
                here, expected: "a matcher petmock supports (\(Self.operators.joined(separator: ", ")))",
                found: "'\(member.key)'", kind: .unknownField)
            return nil
        }
    }

    /// `{"before": "now +3 days", "actualFormat": ..., "truncateActual": ...}` and its kin.
    private mutating func dateTime(
        _ comparison: DateTimeSpec.Comparison, _ object: JSONObject, at path: JSONPath
    )
        -> StringMatcher?
    {
        let errorsBefore = errorCount
        guard let expected = string(object[comparison.rawValue] ?? .null, at: path.appending(key: comparison.rawValue))
        else { return nil }
        var spec = DateTimeSpec(comparison, expected)
        for member in object.members where member.key != comparison.rawValue {
            let here = path.appending(key: member.key)
            switch member.key {
            case "actualFormat": spec.actualFormat = string(member.value, at: here)
            case "expectedOffset":
                guard case .int(let amount) = member.value, abs(amount) <= 100_000 else {
                    wrongType(here, expected: "a whole number up to 100000", member.value)
                    continue
                }
                spec.expectedOffset = Int(amount)
            case "expectedOffsetUnit": spec.expectedOffsetUnit = string(member.value, at: here)
            case "truncateExpected": spec.truncateExpected = string(member.value, at: here)
            case "truncateActual": spec.truncateActual = string(member.value, at: here)
            case "applyTruncationLast": spec.applyTruncationLast = bool(member.value, at: here) ?? false
            default:
                invalid(
                    here, expected: "a date-time option (\(DateTimeSpec.optionKeys.joined(separator: ", ")))",
                    found: "'\(member.key)'", kind: .unknownField)
            }
        }
        return errorCount == errorsBefore ? .dateTime(spec) : nil
    }

    private mutating func jsonPathMatcher(_ value: JSONValue, at path: JSONPath) -> StringMatcher? {
        if case .string(let expression) = value { return .matchesJsonPath(expression) }
        guard let object = object(value, at: path) else { return nil }
        guard let expressionValue = object["expression"] else {
            missing(path.appending(key: "expression"), "expression")
            return nil
        }
        guard let expression = string(expressionValue, at: path.appending(key: "expression")) else { return nil }
        if object.count == 1 { return .matchesJsonPath(expression) }
        guard let sub = matcher(.object(JSONObject(object.members.filter { $0.key != "expression" })), at: path)
        else { return nil }
        return .matchesJsonPath(expression, sub)
    }
}
