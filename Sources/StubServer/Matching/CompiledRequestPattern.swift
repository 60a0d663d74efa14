import HTTPCore
import JSONKit

/// A ``RequestPattern`` made ready to run. ``matches(_:)`` is the fast yes/no used to serve;
/// ``evaluate(_:)`` explains, criterion by criterion, for near misses.
struct CompiledRequestPattern: Sendable {
    enum URLMatch: Sendable {
        case any
        case equal(String)
        case path(String)
        case pattern(CompiledRegex)
        case pathPattern(CompiledRegex)
        case template(PathTemplate)
    }

    let source: RequestPattern
    let method: HTTPMethod?
    let url: URLMatch
    let pathParameters: [(name: String, matcher: CompiledMatcher)]
    let queryParameters: [(name: String, matcher: CompiledMatcher)]
    let headers: [(name: String, matcher: CompiledMatcher)]
    let cookies: [(name: String, matcher: CompiledMatcher)]
    let formParameters: [(name: String, matcher: CompiledMatcher)]
    let bodyPatterns: [CompiledMatcher]
    /// The query parameters a request must have for this pattern to match: those whose
    /// matcher refuses an absent value.
    let requiredQueryNames: FieldNameMask
    /// The headers a request must have, by the same rule.
    let requiredHeaderNames: FieldNameMask

    /// Compiles a pattern, or nil when it has errors; problems (warnings too) name fields under
    /// `$.request`.
    static func compile(_ pattern: RequestPattern, problems: inout [PatternProblem]) -> CompiledRequestPattern? {
        let before = problems.count
        var url = URLMatch.any
        switch pattern.url {
        case nil: url = .any
        case .url(let text): url = .equal(text)
        case .urlPath(let text): url = .path(text)
        case .urlPattern(let text), .urlPathPattern(let text):
            do {
                let regex = try CompiledRegex.compiled(text)
                if case .urlPattern = pattern.url { url = .pattern(regex) } else { url = .pathPattern(regex) }
                if let warning = regex.backtrackingWarning {
                    problems.append(
                        PatternProblem(
                            path: "$.request.\(pattern.url?.fieldName ?? "")", kind: "regular expression",
                            error: PatternError(pattern: text, reason: warning), severity: .warning))
                }
            } catch {
                problems.append(
                    PatternProblem(
                        path: "$.request.\(pattern.url?.fieldName ?? "")", kind: "regular expression", error: error))
            }
        case .urlPathTemplate(let text):
            do {
                url = .template(try PathTemplate(text))
            } catch {
                problems.append(PatternProblem(path: "$.request.urlPathTemplate", kind: "URL template", error: error))
            }
        }
        func compileAll(_ named: [NamedMatcher], _ field: String) -> [(name: String, matcher: CompiledMatcher)] {
            named.compactMap { entry in
                let path = JSONPath.root.appending(key: "request").appending(key: field).appending(key: entry.name)
                return CompiledMatcher.compile(entry.matcher, at: path.description, problems: &problems).map {
                    (entry.name, $0)
                }
            }
        }
        let pathParameters = compileAll(pattern.pathParameters, "pathParameters")
        let queryParameters = compileAll(pattern.queryParameters, "queryParameters")
        var headers = compileAll(pattern.headers, "headers")
        // Basic credentials are the Authorization header that carries them (WireMock's rule).
        if let credentials = pattern.basicAuthCredentials {
            headers.append(("Authorization", .equalTo(credentials.authorizationValue, caseInsensitive: false)))
        }
        let cookies = compileAll(pattern.cookies, "cookies")
        let formParameters = compileAll(pattern.formParameters, "formParameters")
        var requiredHeaders = required(headers, ignoringCase: true)
        if cookies.contains(where: { !$0.matcher.matches(nil) }) {
            requiredHeaders.insert("Cookie", ignoringCase: true)
        }
        let body = pattern.bodyPatterns.enumerated().compactMap { index, matcher in
            CompiledMatcher.compile(matcher, at: "$.request.bodyPatterns[\(index)]", problems: &problems)
        }
        guard !problems[before...].contains(where: { $0.severity == .error }) else { return nil }
        return CompiledRequestPattern(
            source: pattern, method: pattern.method, url: url, pathParameters: pathParameters,
            queryParameters: queryParameters, headers: headers, cookies: cookies, formParameters: formParameters,
            bodyPatterns: body, requiredQueryNames: required(queryParameters, ignoringCase: false),
            requiredHeaderNames: requiredHeaders)
    }

    /// The names whose matcher fails when the field is absent (asked of the matcher itself).
    private static func required(
        _ fields: [(name: String, matcher: CompiledMatcher)], ignoringCase: Bool
    ) -> FieldNameMask {
        var mask = FieldNameMask()
        for field in fields where !field.matcher.matches(nil) {
            mask.insert(field.name, ignoringCase: ignoringCase)
        }
        return mask
    }

    /// Whether the request satisfies every criterion; `urlKnown` skips an exact URL or path
    /// comparison the index lookup already made.
    func matches(_ request: MatchableRequest, urlKnown: Bool = false) -> Bool {
        if let method, method != request.method { return false }
        switch url {
        case .any: break
        case .equal(let text): if !urlKnown && !request.targetEquals(text) { return false }
        case .path(let text):
            // The path as sent, escapes and all, as WireMock compares it.
            if !urlKnown && !request.pathEquals(text) { return false }
        case .pattern(let regex): if !regex.wholeMatches(request.target) { return false }
        case .pathPattern(let regex): if !regex.wholeMatches(request.path) { return false }
        case .template(let template):
            guard let values = template.match(request.path) else { return false }
            for parameter in pathParameters where !parameter.matcher.matches(values[parameter.name]) { return false }
        }
        for parameter in queryParameters where !Self.queryMatches(parameter.name, parameter.matcher, request) {
            return false
        }
        for header in headers where !Self.headerMatches(header.name, header.matcher, request) {
            return false
        }
        for cookie in cookies where !Self.matchesAny(cookie.matcher, request.cookieValues(cookie.name)) {
            return false
        }
        for field in formParameters where !Self.matchesAny(field.matcher, request.formValues(field.name)) {
            return false
        }
        for (index, pattern) in bodyPatterns.enumerated()
        where !request.bodyMatches(pattern, source: source.bodyPatterns[index]) {
            return false
        }
        return true
    }

    /// A multi-valued field matches when any value does; with no value, the matcher sees
    /// absence.
    static func matchesAny(_ matcher: CompiledMatcher, _ values: [String]) -> Bool {
        matcher.matches(values: values)
    }

    // The two loops below are matchesAny without building the array of values.
    private static func queryMatches(_ name: String, _ matcher: CompiledMatcher, _ request: MatchableRequest) -> Bool {
        if matcher.isMultiValued { return matcher.matches(values: request.queryValues(name)) }
        var sawValue = false
        for parameter in request.queryParameters where parameter.name == name {
            if matcher.matches(parameter.value) { return true }
            sawValue = true
        }
        return sawValue ? false : matcher.matches(nil)
    }

    private static func headerMatches(_ name: String, _ matcher: CompiledMatcher, _ request: MatchableRequest) -> Bool {
        if matcher.isMultiValued { return matcher.matches(values: request.headers.values(name: name)) }
        var sawValue = false
        let length = name.utf8.count
        for field in request.headers.fields
        where field.name.utf8.count == length && Self.equalsIgnoringCase(field.name, name) {
            if matcher.matches(field.value) { return true }
            sawValue = true
        }
        return sawValue ? false : matcher.matches(nil)
    }

    /// ASCII case-insensitive equality of two header names, on their UTF-8 bytes.
    private static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        for (a, b) in zip(lhs.utf8, rhs.utf8) where a != b {
            let foldedA = a >= 65 && a <= 90 ? a | 0x20 : a
            let foldedB = b >= 65 && b <= 90 ? b | 0x20 : b
            if foldedA != foldedB { return false }
        }
        return true
    }

    /// Every criterion with whether it matched, what was expected and what came.
    func evaluate(_ request: MatchableRequest) -> [MatchCriterion] {
        var criteria: [MatchCriterion] = []
        let methodMatches = method == nil || method == request.method
        criteria.append(
            MatchCriterion(
                name: "method", matched: methodMatches, expected: method?.rawValue ?? "ANY",
                actual: request.method.rawValue,
                distance: methodMatches ? 0 : 1))
        criteria.append(urlCriterion(request))
        for parameter in queryParameters {
            let values = request.queryValues(parameter.name)
            criteria.append(
                Self.namedCriterion(
                    "query '\(parameter.name)'", parameter.matcher, values, source: source.queryParameters,
                    name: parameter.name))
        }
        for header in headers {
            let values = request.headers.values(name: header.name)
            criteria.append(
                Self.namedCriterion(
                    "header '\(header.name)'", header.matcher, values, source: source.headers, name: header.name))
        }
        for cookie in cookies {
            criteria.append(
                Self.namedCriterion(
                    "cookie '\(cookie.name)'", cookie.matcher, request.cookieValues(cookie.name),
                    source: source.cookies,
                    name: cookie.name))
        }
        for field in formParameters {
            criteria.append(
                Self.namedCriterion(
                    "form parameter '\(field.name)'", field.matcher, request.formValues(field.name),
                    source: source.formParameters, name: field.name))
        }
        for (index, pattern) in bodyPatterns.enumerated() {
            var distance =
                request.bodyMatches(pattern, source: source.bodyPatterns[index])
                ? 0 : pattern.mismatchDistance(request.bodyText)
            var excerpt = request.body.isEmpty ? "no body" : "'\(Self.excerpt(request.bodyText))'"
            if distance > 0, let xml = pattern.xmlMismatch(request) {
                distance = xml.distance
                if let explanation = xml.explanation { excerpt += " (\(explanation))" }
            }
            criteria.append(
                MatchCriterion(
                    name: "body", matched: distance == 0, expected: source.bodyPatterns[index].description,
                    actual: excerpt, distance: distance))
        }
        return criteria
    }

    private func urlCriterion(_ request: MatchableRequest) -> MatchCriterion {
        let expected = source.url?.description ?? "any URL"
        var distance = 0.0
        var actual = String(request.target)
        switch url {
        case .any: break
        case .equal(let text): distance = request.targetEquals(text) ? 0 : StringDistance.normalized(text, actual)
        case .path(let text):
            actual = String(request.path)
            distance =
                request.pathEquals(text) ? 0 : StringDistance.normalized(text, actual)
        case .pattern(let regex): distance = regex.wholeMatches(request.target) ? 0 : 1
        case .pathPattern(let regex):
            actual = String(request.path)
            distance = regex.wholeMatches(request.path) ? 0 : 1
        case .template(let template):
            actual = String(request.path)
            if let values = template.match(request.path) {
                let failing = pathParameters.filter { !$0.matcher.matches(values[$0.name]) }
                if !failing.isEmpty {
                    distance = 0.5
                    actual += "' (path parameter \(failing.map { $0.name }.joined(separator: ", ")) differs)"
                    return MatchCriterion(
                        name: "url", matched: false, expected: expected, actual: "'\(actual)", distance: distance)
                }
            } else {
                distance = 1
            }
        }
        if distance > 0 { distance = max(distance, 0.1) }
        return MatchCriterion(
            name: "url", matched: distance == 0, expected: expected, actual: "'\(actual)'", distance: distance)
    }

    private static func namedCriterion(
        _ label: String, _ matcher: CompiledMatcher, _ values: [String], source: [NamedMatcher], name: String
    ) -> MatchCriterion {
        let expected = source.first { $0.name == name }?.matcher.description ?? "?"
        let distance: Double
        if matchesAny(matcher, values) {
            distance = 0
        } else if values.isEmpty {
            distance = 1
        } else {
            distance = values.map { matcher.distance($0) }.min() ?? 1
        }
        let actual = values.isEmpty ? "absent" : values.map { "'\(excerpt($0))'" }.joined(separator: ", ")
        return MatchCriterion(
            name: label, matched: distance == 0, expected: expected, actual: actual, distance: distance)
    }

    /// The text on one line, cut to 80 characters (looking no further into it).
    static func excerpt(_ text: String) -> String {
        let head = String(text.prefix(81)).replacingNewlines()
        return head.count > 80 ? String(head.prefix(77)) + "..." : head
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
