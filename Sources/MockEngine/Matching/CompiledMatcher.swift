import APISchema
import HTTPCore
import JSONKit
import LinearRegex
import Platform
import StubFormat

/// A ``StringMatcher`` made ready to run: regular expressions compiled, JSONPaths parsed.
///
/// Only the recursive case is `indirect`: a boxed case costs a retain and a release on every
/// look, and the common ones (`equalTo`, `matches`) are looked at for every candidate stub.
enum CompiledMatcher: Sendable {
    case equalTo(String, caseInsensitive: Bool)
    case contains(ByteSearch)
    case doesNotContain(ByteSearch)
    case matches(CompiledRegex)
    case doesNotMatch(CompiledRegex)
    case absent
    case anything
    case equalToJson(JSONValue, JSONComparison)
    indirect case matchesJsonPath(JSONPath, CompiledMatcher?)
    case binaryEqualTo([UInt8])
    case and([CompiledMatcher])
    case or([CompiledMatcher])
    indirect case not(CompiledMatcher)
    case hasExactly([CompiledMatcher])
    case includes([CompiledMatcher])
    case equalToXml(CompiledXMLEquality)
    indirect case matchesXPath(CompiledXPath)
    case dateTime(DateTimeMatcher)
    case matchesJsonSchema(JSONSchemaValidator)
    case number(NumberComparison, Double)

    /// Compiles a matcher; `path` names it in problems; date-time matchers read "now" from `clock`.
    static func compile(
        _ matcher: StringMatcher, at path: String, problems: inout [PatternProblem], clock: TimeSource = .system
    ) -> CompiledMatcher? {
        switch matcher {
        case .equalTo(let text, let caseInsensitive): return .equalTo(text, caseInsensitive: caseInsensitive)
        case .contains(let text): return .contains(ByteSearch(text))
        case .doesNotContain(let text): return .doesNotContain(ByteSearch(text))
        case .matches(let pattern), .doesNotMatch(let pattern):
            do {
                let regex = try CompiledRegex.compiled(pattern)
                if let warning = regex.backtrackingWarning {
                    problems.append(
                        PatternProblem(
                            path: path + "." + matcher.operatorName, kind: "regular expression",
                            error: PatternError(pattern: pattern, reason: warning), severity: .warning))
                }
                if case .matches = matcher { return .matches(regex) }
                return .doesNotMatch(regex)
            } catch {
                problems.append(
                    PatternProblem(path: path + "." + matcher.operatorName, kind: "regular expression", error: error))
                return nil
            }
        case .absent: return .absent
        case .anything: return .anything
        case .equalToJson(let value, let ignoreArrayOrder, let ignoreExtraElements):
            return .equalToJson(
                value,
                JSONComparison(
                    ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements, placeholders: true))
        case .matchesJsonPath(let expression, let sub):
            let jsonPath: JSONPath
            do {
                jsonPath = try JSONPath(expression)
            } catch {
                problems.append(
                    PatternProblem(
                        path: path + ".matchesJsonPath", kind: "JSONPath",
                        error: PatternError(pattern: expression, reason: error.description)))
                return nil
            }
            guard let sub else { return .matchesJsonPath(jsonPath, nil) }
            guard let compiled = compile(sub, at: path + ".matchesJsonPath", problems: &problems, clock: clock) else {
                return nil
            }
            return .matchesJsonPath(jsonPath, compiled)
        case .binaryEqualTo(let bytes): return .binaryEqualTo(bytes)
        case .and(let parts), .or(let parts), .hasExactly(let parts), .includes(let parts):
            var compiled: [CompiledMatcher] = []
            for (index, part) in parts.enumerated() {
                guard
                    let one = compile(
                        part, at: "\(path).\(matcher.operatorName)[\(index)]", problems: &problems, clock: clock)
                else {
                    return nil
                }
                compiled.append(one)
            }
            switch matcher {
            case .and: return .and(compiled)
            case .hasExactly: return .hasExactly(compiled)
            case .includes: return .includes(compiled)
            default: return .or(compiled)
            }
        case .not(let inner):
            return compile(inner, at: path + ".not", problems: &problems, clock: clock).map { .not($0) }
        case .equalToXml(let match):
            return CompiledXMLEquality.compile(match, at: path, problems: &problems).map { .equalToXml($0) }
        case .matchesXPath(let match):
            return CompiledXPath.compile(match, at: path, problems: &problems, clock: clock).map { .matchesXPath($0) }
        case .dateTime(let spec):
            do {
                return .dateTime(try DateTimeMatcher(spec, clock: clock))
            } catch {
                problems.append(
                    PatternProblem(path: path + "." + matcher.operatorName, kind: "date-time", error: error))
                return nil
            }
        case .matchesJsonSchema(let schema, _):
            do {
                return .matchesJsonSchema(try JSONSchemaValidator(schema))
            } catch {
                problems.append(
                    PatternProblem(
                        path: path + ".matchesJsonSchema", kind: "JSON Schema",
                        error: PatternError(pattern: error.path, reason: error.reason)))
                return nil
            }
        case .number(let comparison, let expected): return .number(comparison, expected)
        }
    }

    /// Whether the value (nil when absent) satisfies the matcher. `json` gives the value
    /// parsed as JSON, worked out only when a JSON matcher asks.
    func matches(_ value: String?, bytes: [UInt8]? = nil, json: () -> JSONValue? = { nil }) -> Bool {
        switch self {
        case .absent: return value == nil
        case .anything: return true
        case .and(let parts): return parts.allSatisfy { $0.matches(value, bytes: bytes, json: json) }
        case .or(let parts): return parts.contains { $0.matches(value, bytes: bytes, json: json) }
        case .not(let inner): return !inner.matches(value, bytes: bytes, json: json)
        case .hasExactly, .includes: return matches(values: value.map { [$0] } ?? [])
        // WireMock's negative matchers accept an absent value (nothing holds the text).
        case .doesNotContain, .doesNotMatch: if value == nil { return true }
        default: break
        }
        guard let value else { return false }
        switch self {
        case .equalTo(let expected, let caseInsensitive):
            return caseInsensitive ? value.lowercased() == expected.lowercased() : value == expected
        case .contains(let part): return part.occurs(in: value.utf8)
        case .doesNotContain(let part): return part.needle.isEmpty ? false : !part.occurs(in: value.utf8)
        case .matches(let regex): return regex.wholeMatches(value)
        case .doesNotMatch(let regex): return !regex.wholeMatches(value)
        case .equalToJson(let expected, let comparison):
            guard let actual = json() ?? (try? JSONValue(parsing: value)) else { return false }
            return comparison.matches(expected: expected, actual: actual)
        case .matchesJsonPath(let path, let sub):
            guard let document = json() ?? (try? JSONValue(parsing: value)) else { return false }
            let nodes = path.evaluate(on: document)
            guard let sub else { return !nodes.isEmpty }
            // `{"expression": ..., "absent": true}`: the path selects nothing, or only nulls
            // (WireMock's rule: a null result is an absent value).
            if case .absent = sub { return nodes.allSatisfy(\.isNull) }
            return nodes.contains { node in
                if node.isNull { return sub.matches(nil) }
                let text = node.stringValue ?? node.serialized()
                return sub.matches(text, json: { node })
            }
        case .binaryEqualTo(let expected): return (bytes ?? Array(value.utf8)) == expected
        case .equalToXml(let xml): return xml.matches(bytes ?? Array(value.utf8))
        case .matchesXPath(let xpath): return xpath.matches(bytes ?? Array(value.utf8))
        case .dateTime(let matcher): return matcher.matches(value)
        case .matchesJsonSchema(let validator): return validator.errors(value, json: json(), stopAtFirst: true).isEmpty
        case .number(let comparison, let expected):
            guard let actual = NumberComparison.number(in: value[...]) else { return false }
            return comparison.holds(actual, expected)
        case .absent, .anything, .and, .or, .not, .hasExactly, .includes: return false
        }
    }

    /// Whether the matcher takes every value of a multi-valued field at once (`hasExactly`,
    /// `includes`) rather than any one of them.
    var isMultiValued: Bool {
        switch self {
        case .hasExactly, .includes: true
        default: false
        }
    }

    /// Whether every value of a field, together, satisfies a multi-valued matcher; for any
    /// other matcher, whether one value does (or, with none, absence does).
    func matches(values: [String]) -> Bool {
        switch self {
        case .includes(let parts):
            return parts.allSatisfy { part in values.contains { part.matches($0) } }
        case .hasExactly(let parts):
            // Each value to a distinct matcher: a small bipartite matching, by augmenting paths.
            guard values.count == parts.count else { return false }
            var owner = [Int?](repeating: nil, count: values.count)
            func assign(_ part: Int, _ seen: inout [Bool]) -> Bool {
                for value in values.indices where !seen[value] && parts[part].matches(values[value]) {
                    seen[value] = true
                    let free: Bool
                    if let current = owner[value] { free = assign(current, &seen) } else { free = true }
                    if free {
                        owner[value] = part
                        return true
                    }
                }
                return false
            }
            for part in parts.indices {
                var seen = [Bool](repeating: false, count: values.count)
                if !assign(part, &seen) { return false }
            }
            return true
        default:
            if values.isEmpty { return matches(nil) }
            return values.contains { matches($0) }
        }
    }

    /// How far the value is from matching, from 0 (matches) to 1; text equality gives a
    /// graded distance so near misses rank sensibly.
    func distance(_ value: String?, bytes: [UInt8]? = nil, json: () -> JSONValue? = { nil }) -> Double {
        matches(value, bytes: bytes, json: json) ? 0 : mismatchDistance(value)
    }

    /// ``distance(_:bytes:json:)`` for a value known not to match.
    func mismatchDistance(_ value: String?) -> Double {
        if case .equalTo(let expected, let caseInsensitive) = self, let value {
            let distance = StringDistance.normalized(
                caseInsensitive ? expected.lowercased() : expected, caseInsensitive ? value.lowercased() : value)
            return max(0.1, distance)
        }
        if case .dateTime(let matcher) = self, let value { return max(0.1, matcher.distance(value)) }
        if case .matchesJsonSchema(let validator) = self, let value { return validator.distance(value) }
        return 1
    }
}

/// A pattern in a mapping that does not compile (an error), or that compiles but is risky
/// elsewhere (a warning: a regular expression that backtracks catastrophically in WireMock),
/// with where it is.
struct PatternProblem: Sendable, Hashable {
    /// The JSON path of the field, relative to the mapping (`$.request.urlPattern`).
    let path: String
    /// `regular expression`, `JSONPath` or `URL template`.
    let kind: String
    let error: PatternError
    var severity: StubProblem.Severity = .error
}
