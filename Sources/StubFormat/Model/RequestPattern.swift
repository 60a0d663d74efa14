import HTTPCore
import JSONKit

/// Which requests a mapping answers: method, URL, query, headers and body, all of which
/// must match (WireMock's request pattern).
///
/// ```swift
/// RequestPattern(method: .get, url: .urlPathTemplate("/api/vets/{id}"),
///                headers: [NamedMatcher("Accept", .contains("json"))])
/// ```
public struct RequestPattern: Sendable, Hashable {
    /// The method; nil (or `ANY` in files) matches every method.
    public var method: HTTPMethod?
    /// Several methods (WireMock's `"method": {"oneOf": [...]}` or `{"noneOf": [...]}`); when
    /// set, ``method`` is nil.
    public var methods: MethodSet?
    /// How the URL must look; nil matches every URL.
    public var url: URLPattern?
    /// Matchers for the values a `urlPathTemplate` captures, by parameter name.
    public var pathParameters: [NamedMatcher]
    /// Matchers for query parameters (decoded), by name.
    public var queryParameters: [NamedMatcher]
    /// Matchers for header fields, by name (case-insensitive).
    public var headers: [NamedMatcher]
    /// Matchers the body text must all satisfy.
    public var bodyPatterns: [StringMatcher]
    /// Matchers for cookies (from the `Cookie` header fields), by name.
    public var cookies: [NamedMatcher]
    /// Matchers for form fields of an `application/x-www-form-urlencoded` body (decoded), by name.
    public var formParameters: [NamedMatcher]
    /// HTTP Basic credentials the request must carry (`Authorization: Basic ...`).
    public var basicAuthCredentials: BasicCredentials?
    /// Criteria on the parts of a `multipart/*` body, all of which must hold.
    public var multipartPatterns: [MultipartPattern]
    /// The state extension's matcher (`customMatcher` named `state-matcher`).
    public var stateMatcher: StateMatcherDefinition?

    /// Creates a pattern; with no arguments it matches every request.
    public init(
        method: HTTPMethod? = nil, url: URLPattern? = nil, pathParameters: [NamedMatcher] = [],
        queryParameters: [NamedMatcher] = [], headers: [NamedMatcher] = [], bodyPatterns: [StringMatcher] = [],
        cookies: [NamedMatcher] = [], formParameters: [NamedMatcher] = [],
        basicAuthCredentials: BasicCredentials? = nil,
        multipartPatterns: [MultipartPattern] = [], stateMatcher: StateMatcherDefinition? = nil
    ) {
        self.method = method
        self.url = url
        self.pathParameters = pathParameters
        self.queryParameters = queryParameters
        self.headers = headers
        self.bodyPatterns = bodyPatterns
        self.cookies = cookies
        self.formParameters = formParameters
        self.basicAuthCredentials = basicAuthCredentials
        self.multipartPatterns = multipartPatterns
        self.stateMatcher = stateMatcher
    }
}

/// A method criterion naming several methods, as WireMock writes it in place of one method.
public enum MethodSet: Sendable, Hashable, CustomStringConvertible {
    /// Any of these methods (`{"oneOf": ["GET", "POST"]}`).
    case oneOf([HTTPMethod])
    /// Any method but these (`{"noneOf": ["DELETE"]}`).
    case noneOf([HTTPMethod])

    /// The WireMock key: `oneOf` or `noneOf`.
    public var key: String {
        switch self {
        case .oneOf: "oneOf"
        case .noneOf: "noneOf"
        }
    }

    /// The methods named.
    public var methods: [HTTPMethod] {
        switch self {
        case .oneOf(let methods), .noneOf(let methods): methods
        }
    }

    public var description: String { "\(key) \(methods.map(\.rawValue).joined(separator: ", "))" }
}

/// A user name and password for HTTP Basic authentication (RFC 7617), as WireMock's
/// `basicAuthCredentials` gives them.
public struct BasicCredentials: Sendable, Hashable {
    /// The user name.
    public var username: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The `Authorization` header value that carries them: `Basic base64(user:password)`.
    public var authorizationValue: String {
        "Basic " + Base64.encode(Array("\(username):\(password)".utf8))
    }
}

/// How a request's URL is matched; WireMock's five URL fields.
public enum URLPattern: Sendable, Hashable, CustomStringConvertible {
    /// Path and query exactly equal (`url`).
    case url(String)
    /// Path exactly equal, any query (`urlPath`).
    case urlPath(String)
    /// Path and query matching a regular expression as a whole (`urlPattern`).
    case urlPattern(String)
    /// Path matching a regular expression as a whole, any query (`urlPathPattern`).
    case urlPathPattern(String)
    /// Path matching an RFC 6570-style template such as `/api/vets/{id}` (`urlPathTemplate`).
    case urlPathTemplate(String)

    /// The WireMock field name.
    public var fieldName: String {
        switch self {
        case .url: "url"
        case .urlPath: "urlPath"
        case .urlPattern: "urlPattern"
        case .urlPathPattern: "urlPathPattern"
        case .urlPathTemplate: "urlPathTemplate"
        }
    }

    /// The field's value.
    public var value: String {
        switch self {
        case .url(let text), .urlPath(let text), .urlPattern(let text), .urlPathPattern(let text),
            .urlPathTemplate(let text):
            text
        }
    }

    public var description: String { "\(fieldName) '\(value)'" }
}

/// A matcher for a named value: a query parameter, a header, or a path parameter.
public struct NamedMatcher: Sendable, Hashable {
    /// The parameter or header name.
    public var name: String
    /// What its value must satisfy.
    public var matcher: StringMatcher

    /// Creates a named matcher.
    public init(_ name: String, _ matcher: StringMatcher) {
        self.name = name
        self.matcher = matcher
    }
}

/// A predicate on a text value, spelled as WireMock spells its matchers.
public indirect enum StringMatcher: Sendable, Hashable, CustomStringConvertible {
    /// Exactly equal (`equalTo`), optionally ignoring case (`caseInsensitive`).
    case equalTo(String, caseInsensitive: Bool = false)
    /// Contains the text (`contains`).
    case contains(String)
    /// Does not contain the text (`doesNotContain`).
    case doesNotContain(String)
    /// Matches the regular expression as a whole (`matches`).
    case matches(String)
    /// Does not match the regular expression as a whole (`doesNotMatch`).
    case doesNotMatch(String)
    /// The value is not there at all (`absent`).
    case absent
    /// Any value, present or not (`anything`).
    case anything
    /// The text is JSON equivalent to this (`equalToJson`), with WireMock's options.
    case equalToJson(JSONValue, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false)
    /// The text is JSON in which the path selects something (`matchesJsonPath`); with a
    /// sub-matcher, something whose text satisfies it.
    case matchesJsonPath(String, StringMatcher? = nil)
    /// The bytes equal these (`binaryEqualTo`, base64 in files).
    case binaryEqualTo([UInt8])
    /// Every matcher holds (`and`).
    case and([StringMatcher])
    /// At least one matcher holds (`or`).
    case or([StringMatcher])
    /// The matcher does not hold (`not`).
    case not(StringMatcher)
    /// Of a multi-valued query parameter or header: every value is matched by one of these and
    /// each of these matches one value, as many values as matchers (`hasExactly`).
    case hasExactly([StringMatcher])
    /// Of a multi-valued query parameter or header: each of these matches some value (`includes`).
    case includes([StringMatcher])
    /// The text is XML equal to a document (`equalToXml`), with WireMock's options.
    case equalToXml(XMLMatch)
    /// The text is XML on which an XPath selects something (`matchesXPath`), or something
    /// whose text satisfies a sub-matcher.
    case matchesXPath(XPathMatch)
    /// The value is a date-time before, after or equal to one (`before`, `after`,
    /// `equalToDateTime`), with WireMock's format, offset and truncation options.
    case dateTime(DateTimeSpec)
    /// The text is JSON (or, when it is not, a JSON string) valid against the schema
    /// (`matchesJsonSchema`, with WireMock's optional `schemaVersion` such as `V7`).
    case matchesJsonSchema(JSONValue, schemaVersion: String? = nil)
    /// The value, read as a decimal number, compared with this one (`equalToNumber`,
    /// `greaterThanNumber`, `greaterThanEqualNumber`, `lessThanNumber`, `lessThanEqualNumber`).
    case number(NumberComparison, Double)

    /// The WireMock operator name.
    public var operatorName: String {
        switch self {
        case .equalTo: "equalTo"
        case .contains: "contains"
        case .doesNotContain: "doesNotContain"
        case .matches: "matches"
        case .doesNotMatch: "doesNotMatch"
        case .absent: "absent"
        case .anything: "anything"
        case .equalToJson: "equalToJson"
        case .matchesJsonPath: "matchesJsonPath"
        case .binaryEqualTo: "binaryEqualTo"
        case .and: "and"
        case .or: "or"
        case .not: "not"
        case .hasExactly: "hasExactly"
        case .includes: "includes"
        case .equalToXml: "equalToXml"
        case .matchesXPath: "matchesXPath"
        case .dateTime(let spec): spec.comparison.rawValue
        case .matchesJsonSchema: "matchesJsonSchema"
        case .number(let comparison, _): comparison.rawValue
        }
    }

    public var description: String {
        switch self {
        case .equalTo(let text, let caseInsensitive): "equalTo '\(text)'" + (caseInsensitive ? " (any case)" : "")
        case .contains(let text), .doesNotContain(let text), .matches(let text), .doesNotMatch(let text):
            "\(operatorName) '\(text)'"
        case .absent: "absent"
        case .anything: "anything"
        case .equalToJson(let value, _, _): "equalToJson \(JSONComparison.excerpt(value))"
        case .matchesJsonPath(let path, let sub): "matchesJsonPath '\(path)'" + (sub.map { " where \($0)" } ?? "")
        case .binaryEqualTo(let bytes): "binaryEqualTo \(bytes.count) bytes"
        case .and(let all): all.map(\.description).joined(separator: " and ")
        case .or(let any): any.map(\.description).joined(separator: " or ")
        case .not(let inner): "not (\(inner))"
        case .hasExactly(let all): "hasExactly [" + all.map(\.description).joined(separator: ", ") + "]"
        case .includes(let all): "includes [" + all.map(\.description).joined(separator: ", ") + "]"
        case .equalToXml(let xml): "equalToXml '\(StringMatcher.excerpt(xml.expected))'"
        case .matchesXPath(let xpath): "matchesXPath '\(xpath.expression)'" + (xpath.sub.map { " where \($0)" } ?? "")
        case .dateTime(let spec): spec.description
        case .matchesJsonSchema(let schema, _): "matchesJsonSchema \(JSONComparison.excerpt(schema))"
        case .number(let comparison, let expected): "\(comparison.rawValue) \(NumberComparison.text(expected))"
        }
    }
}

extension StringMatcher {
    /// Text for a one-line message: newlines as spaces, at most 80 characters.
    package static func excerpt(_ text: String) -> String {
        let head = String(String(text.prefix(81)).map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        return head.count > 80 ? String(head.prefix(77)) + "..." : head
    }
}
