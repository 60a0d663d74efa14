import HTTPCore
import JSONKit
import Platform
import StubFormat

/// A ``RequestPattern`` made ready to run. One evaluation, ``evaluate(_:urlKnown:into:)``,
/// checks every criterion; ``matches(_:urlKnown:)`` runs it stopping at the first failure (to
/// serve), ``evaluate(_:)`` runs it to the end and explains each criterion (near misses).
struct CompiledRequestPattern: Sendable {
    enum URLMatch: Sendable {
        case any
        case equal(String)
        case path(String)
        case pattern(CompiledRegex)
        case pathPattern(CompiledRegex)
        case template(PathTemplate)
    }

    /// The method criterion.
    enum MethodMatch: Sendable {
        case any
        case one(HTTPMethod)
        case oneOf([HTTPMethod])
        case noneOf([HTTPMethod])

        func matches(_ method: HTTPMethod) -> Bool {
            switch self {
            case .any: true
            case .one(let expected): expected == method
            case .oneOf(let methods): methods.contains(method)
            case .noneOf(let methods): !methods.contains(method)
            }
        }
    }

    let source: RequestPattern
    let method: MethodMatch
    let url: URLMatch
    let pathParameters: [(name: String, matcher: CompiledMatcher)]
    let queryParameters: [(name: String, matcher: CompiledMatcher)]
    let headers: [(name: String, matcher: CompiledMatcher)]
    let cookies: [(name: String, matcher: CompiledMatcher)]
    let formParameters: [(name: String, matcher: CompiledMatcher)]
    let bodyPatterns: [CompiledMatcher]
    let multipartPatterns: [CompiledMultipartPattern]
    /// The query parameters a request must have for this pattern to match: those whose
    /// matcher refuses an absent value.
    let requiredQueryNames: FieldNameMask
    /// The headers a request must have, by the same rule.
    let requiredHeaderNames: FieldNameMask

    /// Compiles a pattern, or nil when it has errors; problems (warnings too) name fields under
    /// `$.request`.
    static func compile(
        _ pattern: RequestPattern, problems: inout [PatternProblem], clock: TimeSource = .system
    ) -> CompiledRequestPattern? {
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
                return CompiledMatcher.compile(entry.matcher, at: path.description, problems: &problems, clock: clock)
                    .map {
                        (entry.name, $0)
                    }
            }
        }
        let pathParameters = compileAll(pattern.pathParameters, "pathParameters")
        let queryParameters = compileAll(pattern.queryParameters, "queryParameters")
        var headers = compileAll(pattern.headers, "headers")
        // Basic credentials are the Authorization header that carries them (WireMock's rule),
        // its scheme name in any case (RFC 9110 §11.1), the credentials exactly.
        if let credentials = pattern.basicAuthCredentials {
            headers.append(("Authorization", Self.basicAuthorization(credentials)))
        }
        let cookies = compileAll(pattern.cookies, "cookies")
        let formParameters = compileAll(pattern.formParameters, "formParameters")
        var requiredHeaders = required(headers, ignoringCase: true)
        if cookies.contains(where: { !$0.matcher.matches(nil) }) {
            requiredHeaders.insert("Cookie", ignoringCase: true)
        }
        let body = pattern.bodyPatterns.enumerated().compactMap { index, matcher in
            CompiledMatcher.compile(
                matcher, at: "$.request.bodyPatterns[\(index)]", problems: &problems, clock: clock)
        }
        let multipart = pattern.multipartPatterns.enumerated().compactMap { index, entry in
            CompiledMultipartPattern.compile(
                entry, at: "$.request.multipartPatterns[\(index)]", problems: &problems, clock: clock)
        }
        guard !problems[before...].contains(where: { $0.severity == .error }) else { return nil }
        return CompiledRequestPattern(
            source: pattern, method: methodMatch(pattern), url: url, pathParameters: pathParameters,
            queryParameters: queryParameters, headers: headers, cookies: cookies, formParameters: formParameters,
            bodyPatterns: body, multipartPatterns: multipart,
            requiredQueryNames: required(queryParameters, ignoringCase: false),
            requiredHeaderNames: requiredHeaders)
    }

    private static func methodMatch(_ pattern: RequestPattern) -> MethodMatch {
        switch pattern.methods {
        case .oneOf(let methods)?: return .oneOf(methods)
        case .noneOf(let methods)?: return .noneOf(methods)
        case nil: return pattern.method.map { .one($0) } ?? .any
        }
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

    /// `Basic TOKEN`, the scheme name in any case and one or more spaces (RFC 9110 §11.1,
    /// §11.4): base64's alphabet has only `+` to escape in a regular expression.
    static func basicAuthorization(_ credentials: BasicCredentials) -> CompiledMatcher {
        let token = String(credentials.authorizationValue.dropFirst("Basic ".count))
        let pattern = "[Bb][Aa][Ss][Ii][Cc] +" + token.map { $0 == "+" ? "\\+" : String($0) }.joined()
        guard let regex = try? CompiledRegex.compiled(pattern) else {
            return .equalTo(credentials.authorizationValue, caseInsensitive: false)
        }
        return .matches(regex)
    }
}
