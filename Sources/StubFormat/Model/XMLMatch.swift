import JSONKit
import XMLKit

/// WireMock's `equalToXml` as a stub gives it: the expected document and the options of the
/// comparison, kept as written so that a mapping reads back as it was given.
public struct XMLMatch: Sendable, Hashable {
    /// The expected document's text.
    public var expected: String
    /// `enablePlaceholders`, nil when not given.
    public var enablePlaceholders: Bool?
    /// `placeholderOpeningDelimiterRegex`, nil for XMLUnit's default `\$\{`.
    public var placeholderOpeningDelimiterRegex: String?
    /// `placeholderClosingDelimiterRegex`, nil for XMLUnit's default `\}`.
    public var placeholderClosingDelimiterRegex: String?
    /// `exemptedComparisons`, in the order given.
    public var exemptedComparisons: [XMLComparisonType]?
    /// `ignoreOrderOfSameNode`, nil when not given.
    public var ignoreOrderOfSameNode: Bool?
    /// `namespaceAwareness`, nil for the default (`STRICT`).
    public var namespaceAwareness: XMLNamespaceAwareness?

    /// Creates a match on an expected document, with WireMock's defaults for what is not given.
    public init(
        _ expected: String, enablePlaceholders: Bool? = nil, placeholderOpeningDelimiterRegex: String? = nil,
        placeholderClosingDelimiterRegex: String? = nil, exemptedComparisons: [XMLComparisonType]? = nil,
        ignoreOrderOfSameNode: Bool? = nil, namespaceAwareness: XMLNamespaceAwareness? = nil
    ) {
        self.expected = expected
        self.enablePlaceholders = enablePlaceholders
        self.placeholderOpeningDelimiterRegex = placeholderOpeningDelimiterRegex
        self.placeholderClosingDelimiterRegex = placeholderClosingDelimiterRegex
        self.exemptedComparisons = exemptedComparisons
        self.ignoreOrderOfSameNode = ignoreOrderOfSameNode
        self.namespaceAwareness = namespaceAwareness
    }

    /// The comparison's options.
    package var options: XMLEqualityOptions {
        XMLEqualityOptions(
            namespaceAwareness: namespaceAwareness ?? .strict, exemptedComparisons: Set(exemptedComparisons ?? []),
            ignoreOrderOfSameNode: ignoreOrderOfSameNode ?? false,
            placeholders: enablePlaceholders == true
                ? XMLPlaceholderDelimiters(
                    opening: placeholderOpeningDelimiterRegex, closing: placeholderClosingDelimiterRegex) : nil)
    }

    /// The matcher object's members, as WireMock writes them.
    package var jsonMembers: JSONObject {
        var object: JSONObject = ["equalToXml": .string(expected)]
        if let enablePlaceholders { object["enablePlaceholders"] = .bool(enablePlaceholders) }
        if let placeholderOpeningDelimiterRegex {
            object["placeholderOpeningDelimiterRegex"] = .string(placeholderOpeningDelimiterRegex)
        }
        if let placeholderClosingDelimiterRegex {
            object["placeholderClosingDelimiterRegex"] = .string(placeholderClosingDelimiterRegex)
        }
        if let exemptedComparisons {
            object["exemptedComparisons"] = .array(exemptedComparisons.map { .string($0.rawValue) })
        }
        if let ignoreOrderOfSameNode { object["ignoreOrderOfSameNode"] = .bool(ignoreOrderOfSameNode) }
        if let namespaceAwareness { object["namespaceAwareness"] = .string(namespaceAwareness.rawValue) }
        return object
    }
}

/// WireMock's `matchesXPath`: an XPath 1.0 expression, the namespace prefixes it uses, and
/// optionally a matcher the selected values must satisfy.
public struct XPathMatch: Sendable, Hashable {
    /// The expression.
    public var expression: String
    /// `xPathNamespaces`: prefix to URI, in the order given.
    public var namespaces: [XMLNamespace]
    /// What a selected value must satisfy (one of them, as WireMock has it); nil: something is selected.
    public var sub: StringMatcher?

    /// Creates an XPath match.
    public init(_ expression: String, namespaces: [XMLNamespace] = [], sub: StringMatcher? = nil) {
        self.expression = expression
        self.namespaces = namespaces
        self.sub = sub
    }

    /// The matcher object, as WireMock writes it.
    package var json: JSONValue {
        var object = JSONObject()
        if let sub, case .object(var inner) = sub.json {
            inner.members.insert(JSONMember(key: "expression", value: .string(expression)), at: 0)
            object["matchesXPath"] = .object(inner)
        } else {
            object["matchesXPath"] = .string(expression)
        }
        if !namespaces.isEmpty {
            object["xPathNamespaces"] = .object(JSONObject(namespaces.map { ($0.prefix ?? "", .string($0.uri)) }))
        }
        return .object(object)
    }
}
