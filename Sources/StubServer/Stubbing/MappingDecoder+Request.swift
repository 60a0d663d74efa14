import HTTPCore
import JSONKit

extension MappingDecoder {
    private static let urlFields = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]
    private static let unsupportedRequestFields = [
        "host", "port", "scheme", "customMatcher", "clientIp",
    ]

    /// Decodes a request pattern object; nil when it has an error, unless `keepingErrors`
    /// asks for the parts that decoded (nil then only when it is not an object).
    mutating func decodeRequest(_ value: JSONValue, at path: JSONPath, keepingErrors: Bool = false) -> RequestPattern? {
        guard let object = object(value, at: path) else { return nil }
        let errorsBefore = errorCount
        var pattern = RequestPattern()
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "method":
                if case .object = member.value {
                    pattern.methods = methodSet(member.value, at: here)
                } else if let method = string(member.value, at: here) {
                    if method.isEmpty || method.contains(" ") {
                        invalid(here, expected: "an HTTP method such as 'GET' or 'ANY'", found: "'\(method)'")
                    } else if method != "ANY" {
                        pattern.method = HTTPMethod(rawValue: method)
                    }
                }
            case _ where Self.urlFields.contains(member.key):
                guard let text = string(member.value, at: here) else { continue }
                if let existing = pattern.url {
                    invalid(
                        here, expected: "one URL field", found: "both '\(existing.fieldName)' and '\(member.key)'")
                    continue
                }
                if (member.key == "url" || member.key == "urlPath"),
                    let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F || $0 == "\"" })
                {
                    // A request target is sent escaped: such a stub could never answer.
                    problems.append(
                        StubProblem(
                            .warning, .invalidValue, file: file, path: here.description,
                            detail:
                                "'\(text)' holds \(bad.value == 0x20 ? "a space" : "'\(bad.escaped(asASCII: true))'"), "
                                + "which a request path never has unescaped; no request can match it (write it "
                                + "percent-encoded, as clients send it: %20 for a space)"))
                }
                switch member.key {
                case "url": pattern.url = .url(text)
                case "urlPath": pattern.url = .urlPath(text)
                case "urlPattern": pattern.url = .urlPattern(text)
                case "urlPathPattern": pattern.url = .urlPathPattern(text)
                default: pattern.url = .urlPathTemplate(text)
                }
            case "pathParameters": pattern.pathParameters = namedMatchers(member.value, at: here)
            case "queryParameters": pattern.queryParameters = namedMatchers(member.value, at: here)
            case "headers": pattern.headers = namedMatchers(member.value, at: here)
            case "cookies": pattern.cookies = namedMatchers(member.value, at: here)
            case "formParameters": pattern.formParameters = namedMatchers(member.value, at: here)
            case "basicAuthCredentials": pattern.basicAuthCredentials = credentials(member.value, at: here)
            case "bodyPatterns": pattern.bodyPatterns = matchers(member.value, at: here)
            case "multipartPatterns":
                guard case .array(let elements) = member.value else {
                    wrongType(here, expected: "an array of multipart patterns", member.value)
                    continue
                }
                for (index, element) in elements.enumerated() {
                    if let multipart = multipartPattern(element, at: here.appending(index: index)) {
                        pattern.multipartPatterns.append(multipart)
                    }
                }
            case _ where Self.unsupportedRequestFields.contains(member.key):
                // Ignoring a criterion would make the stub match more than its author wrote.
                problems.append(
                    StubProblem(
                        .error, .unknownField, file: file, path: here.description,
                        detail: "'\(member.key)' is not supported by petmock; the mapping is refused rather than "
                            + "served matching more requests than it says"))
            default:
                problems.append(
                    StubProblem(
                        .error, .unknownField, file: file, path: here.description,
                        detail: "unknown field '\(member.key)' in a request pattern; the mapping is refused rather "
                            + "than served matching more requests than it says"))
            }
        }
        if !pattern.pathParameters.isEmpty, !isTemplate(pattern.url) {
            problems.append(
                StubProblem(
                    .warning, .unknownField, file: file, path: path.appending(key: "pathParameters").description,
                    detail: "'pathParameters' only apply with 'urlPathTemplate', ignored"))
            pattern.pathParameters = []
        }
        return errorCount == errorsBefore || keepingErrors ? pattern : nil
    }

    /// `{"oneOf": ["GET", "POST"]}` or `{"noneOf": [...]}`: one key, a non-empty array of method
    /// names (`ANY` among them is dropped, as WireMock drops it).
    private mutating func methodSet(_ value: JSONValue, at path: JSONPath) -> MethodSet? {
        guard let object = object(value, at: path) else { return nil }
        guard object.count == 1, let member = object.members.first, ["oneOf", "noneOf"].contains(member.key) else {
            invalid(
                path, expected: "'oneOf' or 'noneOf' with an array of methods",
                found: object.members.map { "'\($0.key)'" }.joined(separator: ", "))
            return nil
        }
        let here = path.appending(key: member.key)
        guard case .array(let elements) = member.value, !elements.isEmpty else {
            wrongType(here, expected: "a non-empty array of methods", member.value)
            return nil
        }
        var methods: [HTTPMethod] = []
        for (index, element) in elements.enumerated() {
            guard let name = string(element, at: here.appending(index: index)) else { return nil }
            if name.isEmpty || name.contains(" ") {
                invalid(here.appending(index: index), expected: "an HTTP method such as 'GET'", found: "'\(name)'")
                return nil
            }
            let method = HTTPMethod(rawValue: name)
            if name != "ANY" && !methods.contains(method) { methods.append(method) }
        }
        return member.key == "oneOf" ? .oneOf(methods) : .noneOf(methods)
    }

    /// An array of matchers (`bodyPatterns`).
    private mutating func matchers(_ value: JSONValue, at path: JSONPath) -> [StringMatcher] {
        guard case .array(let elements) = value else {
            wrongType(path, expected: "an array of matchers", value)
            return []
        }
        return elements.enumerated().compactMap { index, element in matcher(element, at: path.appending(index: index)) }
    }

    /// `{"matchingType": "ANY", "headers": {...}, "bodyPatterns": [...]}`, with `name` and
    /// `fileName`.
    private mutating func multipartPattern(_ value: JSONValue, at path: JSONPath) -> MultipartPattern? {
        guard let object = object(value, at: path) else { return nil }
        let errorsBefore = errorCount
        var pattern = MultipartPattern()
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "matchingType":
                guard let text = string(member.value, at: here) else { continue }
                guard let type = MultipartPattern.MatchingType(rawValue: text) else {
                    invalid(here, expected: "'ANY' or 'ALL'", found: "'\(text)'")
                    continue
                }
                pattern.matchingType = type
            case "name": pattern.name = string(member.value, at: here)
            case "fileName": pattern.fileName = string(member.value, at: here)
            case "headers": pattern.headers = namedMatchers(member.value, at: here)
            case "bodyPatterns": pattern.bodyPatterns = matchers(member.value, at: here)
            default:
                invalid(
                    here, expected: "a multipart pattern field (matchingType, name, fileName, headers, bodyPatterns)",
                    found: "'\(member.key)'", kind: .unknownField)
            }
        }
        return errorCount == errorsBefore ? pattern : nil
    }

    /// `{"username": "...", "password": "..."}`, both strings, nothing else.
    private mutating func credentials(_ value: JSONValue, at path: JSONPath) -> BasicCredentials? {
        guard let object = object(value, at: path) else { return nil }
        var username: String?
        var password: String?
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "username": username = string(member.value, at: here)
            case "password": password = string(member.value, at: here)
            default: unknownField(here, member.key)
            }
        }
        guard let username, let password else {
            invalid(
                path, expected: "'username' and 'password'", found: username == nil ? "no 'username'" : "no 'password'")
            return nil
        }
        return BasicCredentials(username: username, password: password)
    }

    private func isTemplate(_ url: URLPattern?) -> Bool {
        if case .urlPathTemplate = url { return true }
        return false
    }

    private mutating func namedMatchers(_ value: JSONValue, at path: JSONPath) -> [NamedMatcher] {
        guard let object = object(value, at: path) else { return [] }
        var result: [NamedMatcher] = []
        for member in object.members {
            if let matcher = matcher(member.value, at: path.appending(key: member.key)) {
                result.append(NamedMatcher(member.key, matcher))
            }
        }
        return result
    }

    static let operators = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "anything", "equalToJson",
        "matchesJsonPath", "binaryEqualTo", "and", "or", "not", "hasExactly", "includes", "before", "after",
        "equalToDateTime", "matchesJsonSchema",
    ]
    private static let modifiers = [
        "caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements", "enablePlaceholders", "schemaVersion",
    ]
    /// WireMock's JSON Schema versions.
    static let schemaVersions = ["V4", "V6", "V7", "V201909", "V202012"]

    /// Decodes one matcher object such as `{"equalTo": "x", "caseInsensitive": true}`.
    mutating func matcher(_ value: JSONValue, at path: JSONPath) -> StringMatcher? {
        guard let object = object(value, at: path) else { return nil }
        let operatorMembers = object.members.filter {
            !Self.modifiers.contains($0.key) && $0.key != "expression" && !DateTimeSpec.optionKeys.contains($0.key)
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
            _ = bool(modifier.value, at: path.appending(key: modifier.key))
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
        guard let sub = matcher(value, at: path) else { return nil }
        return .matchesJsonPath(expression, sub)
    }
}
