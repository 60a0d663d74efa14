import HTTPCore
import StubFormat

/// The one evaluation of a request pattern: each criterion's verdict is decided here, once,
/// and handed to a ``MatchRecorder`` with its explanation.
extension CompiledRequestPattern {
    /// Whether the request satisfies every criterion (stops at the first that fails);
    /// `urlKnown` skips an exact URL or path comparison the index lookup already made.
    func matches(_ request: MatchableRequest, urlKnown: Bool = false) -> Bool {
        var recorder = FirstFailure()
        return evaluate(request, urlKnown: urlKnown, into: &recorder)
    }

    /// Every criterion with whether it matched, what was expected and what came.
    func evaluate(_ request: MatchableRequest) -> [MatchCriterion] {
        var recorder = AllCriteria()
        _ = evaluate(request, into: &recorder)
        return recorder.criteria
    }

    /// Checks the criteria in order, reporting each verdict to `recorder`; returns false as soon
    /// as the recorder says to stop (``FirstFailure`` does at the first failure), true when
    /// every criterion was reported.
    func evaluate<Recorder: MatchRecorder>(
        _ request: MatchableRequest, urlKnown: Bool = false, into recorder: inout Recorder
    ) -> Bool {
        let methodMatched = method.matches(request.method)
        guard recorder.record(methodMatched, { methodCriterion(request) }) else { return false }
        guard recorder.record(urlMatches(request, urlKnown: urlKnown), { urlCriterion(request) }) else {
            return false
        }
        for parameter in queryParameters {
            let matched = Self.queryMatches(parameter.name, parameter.matcher, request)
            let goesOn = recorder.record(matched) {
                Self.namedCriterion(
                    "query '\(parameter.name)'", parameter.matcher, request.queryValues(parameter.name),
                    source: source.queryParameters, name: parameter.name)
            }
            guard goesOn else { return false }
        }
        for header in headers {
            let matched = Self.headerMatches(header.name, header.matcher, request)
            let goesOn = recorder.record(matched) {
                Self.namedCriterion(
                    "header '\(header.name)'", header.matcher, request.headers.values(name: header.name),
                    source: source.headers, name: header.name)
            }
            guard goesOn else { return false }
        }
        for cookie in cookies {
            let values = request.cookieValues(cookie.name)
            let goesOn = recorder.record(cookie.matcher.matches(values: values)) {
                Self.namedCriterion(
                    "cookie '\(cookie.name)'", cookie.matcher, values, source: source.cookies, name: cookie.name)
            }
            guard goesOn else { return false }
        }
        for field in formParameters {
            let values = request.formValues(field.name)
            let goesOn = recorder.record(field.matcher.matches(values: values)) {
                Self.namedCriterion(
                    "form parameter '\(field.name)'", field.matcher, values, source: source.formParameters,
                    name: field.name)
            }
            guard goesOn else { return false }
        }
        for (index, pattern) in bodyPatterns.enumerated() {
            let written = source.bodyPatterns[index]
            let matched = request.bodyMatches(pattern, source: written)
            let goesOn = recorder.record(matched) {
                var distance = matched ? 0 : pattern.mismatchDistance(request.bodyText)
                var actual = request.body.isEmpty ? "no body" : "'\(StringMatcher.excerpt(request.bodyText))'"
                // An XML matcher says what differs: the first difference, or what the XPath selected.
                if !matched, let xml = pattern.xmlMismatch(request) {
                    distance = xml.distance
                    if let explanation = xml.explanation { actual += " (\(explanation))" }
                }
                return MatchCriterion(
                    name: "body", matched: matched, expected: written.description, actual: actual, distance: distance)
            }
            guard goesOn else { return false }
        }
        for (index, multipart) in multipartPatterns.enumerated() {
            let parts = request.multipartParts
            let goesOn = recorder.record(multipart.matches(parts)) { multipart.criterion(parts, index: index) }
            guard goesOn else { return false }
        }
        return true
    }

    private func urlMatches(_ request: MatchableRequest, urlKnown: Bool) -> Bool {
        switch url {
        case .any: return true
        case .equal(let text): return urlKnown || request.targetEquals(text)
        // The path as sent, escapes and all, as WireMock compares it.
        case .path(let text): return urlKnown || request.pathEquals(text)
        case .pattern(let regex): return regex.wholeMatches(request.target)
        case .pathPattern(let regex): return regex.wholeMatches(request.path)
        case .template(let template):
            guard let values = template.match(request.path) else { return false }
            return pathParameters.allSatisfy { $0.matcher.matches(values[$0.name]) }
        }
    }

    private func methodCriterion(_ request: MatchableRequest) -> MatchCriterion {
        let expected: String
        switch method {
        case .any: expected = "ANY"
        case .one(let one): expected = one.rawValue
        case .oneOf(let methods): expected = "oneOf " + methods.map(\.rawValue).joined(separator: ", ")
        case .noneOf(let methods): expected = "noneOf " + methods.map(\.rawValue).joined(separator: ", ")
        }
        return MatchCriterion(
            name: "method", matched: false, expected: expected, actual: request.method.rawValue, distance: 1)
    }

    /// The URL criterion's explanation; its verdict comes from ``urlMatches(_:urlKnown:)``.
    private func urlCriterion(_ request: MatchableRequest) -> MatchCriterion {
        let expected = source.url?.description ?? "any URL"
        var distance = 1.0
        var actual = String(request.target)
        switch url {
        case .any: break
        case .equal(let text): distance = StringDistance.normalized(text, actual)
        case .path(let text):
            actual = String(request.path)
            distance = StringDistance.normalized(text, actual)
        case .pattern: break
        case .pathPattern: actual = String(request.path)
        case .template(let template):
            actual = String(request.path)
            if let values = template.match(request.path) {
                let failing = pathParameters.filter { !$0.matcher.matches(values[$0.name]) }
                distance = 0.5
                actual += "' (path parameter \(failing.map { $0.name }.joined(separator: ", ")) differs)"
                return MatchCriterion(
                    name: "url", matched: false, expected: expected, actual: "'\(actual)", distance: distance)
            }
        }
        return MatchCriterion(
            name: "url", matched: false, expected: expected, actual: "'\(actual)'", distance: distance)
    }

    /// A named field's explanation: the closest of its values.
    static func namedCriterion(
        _ label: String, _ matcher: CompiledMatcher, _ values: [String], source: [NamedMatcher], name: String
    ) -> MatchCriterion {
        let expected = source.first { $0.name == name }?.matcher.description ?? "?"
        let distance = values.isEmpty ? 1 : values.map { matcher.distance($0) }.min() ?? 1
        let actual = values.isEmpty ? "absent" : values.map { "'\(StringMatcher.excerpt($0))'" }.joined(separator: ", ")
        return MatchCriterion(name: label, matched: false, expected: expected, actual: actual, distance: distance)
    }

    // The two loops below are `matches(values:)` without building the array of values.
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
}
