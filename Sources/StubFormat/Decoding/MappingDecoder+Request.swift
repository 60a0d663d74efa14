import HTTPCore
import JSONKit

extension MappingDecoder {
    private static let urlFields = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]
    /// The fields of a request pattern.
    static let requestFields =
        urlFields + [
            "method", "pathParameters", "queryParameters", "headers", "cookies", "formParameters",
            "basicAuthCredentials", "bodyPatterns", "multipartPatterns",
        ]
    private static let unsupportedRequestFields = [
        "host", "port", "scheme", "clientIp",
    ]

    /// Decodes a request pattern object; nil when it has an error, unless `keepingErrors`
    /// asks for the parts that decoded (nil then only when it is not an object).
    package mutating func decodeRequest(
        _ value: JSONValue, at path: JSONPath, keepingErrors: Bool = false
    ) -> RequestPattern? {
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
            case "customMatcher":
                if !member.value.isNull { pattern.stateMatcher = stateMatcher(member.value, at: here) }
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
                        detail:
                            "unknown field '\(member.key)'\(Self.didYouMean(member.key, among: Self.requestFields)) "
                            + "in a request pattern; the mapping is refused rather than served matching more requests "
                            + "than it says"))
            }
        }
        if !pattern.pathParameters.isEmpty, !isTemplate(pattern.url) {
            // WireMock ignores them, so its stub matches every value: refused instead.
            problems.append(
                StubProblem(
                    .error, .unknownField, file: file, path: path.appending(key: "pathParameters").description,
                    detail: "'pathParameters' apply only with 'urlPathTemplate'; without one they would be "
                        + "ignored and the mapping would match more requests than it says"))
            pattern.pathParameters = []
        }
        if case .urlPathTemplate(let template)? = pattern.url {
            let variables = Self.templateVariables(template)
            for parameter in pattern.pathParameters where !variables.contains(parameter.name) {
                invalid(
                    path.appending(key: "pathParameters").appending(key: parameter.name),
                    expected: "a variable of '\(template)' (\(variables.joined(separator: ", ")))",
                    found: "'\(parameter.name)'", kind: .unknownField)
            }
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
    package mutating func matchers(_ value: JSONValue, at path: JSONPath) -> [StringMatcher] {
        guard case .array(let elements) = value else {
            wrongType(path, expected: "an array of matchers", value)
            return []
        }
        return elements.enumerated().compactMap { index, element in
            self.matcher(element, at: path.appending(index: index))
        }
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

    /// The `{name}` variables of a `urlPathTemplate` (one per segment, text may surround it),
    /// in order.
    static func templateVariables(_ template: String) -> [String] {
        template.split(separator: "/").compactMap { segment in
            guard let open = segment.firstIndex(of: "{"), let close = segment[open...].firstIndex(of: "}") else {
                return nil
            }
            return String(segment[segment.index(after: open)..<close])
        }
    }

    private func isTemplate(_ url: URLPattern?) -> Bool {
        if case .urlPathTemplate = url { return true }
        return false
    }

    package mutating func namedMatchers(_ value: JSONValue, at path: JSONPath) -> [NamedMatcher] {
        guard let object = object(value, at: path) else { return [] }
        var result: [NamedMatcher] = []
        for member in object.members {
            if let matcher = self.matcher(member.value, at: path.appending(key: member.key)) {
                result.append(NamedMatcher(member.key, matcher))
            }
        }
        return result
    }
}
