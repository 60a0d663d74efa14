/// A JSONPath (the Goessner/Jayway subset WireMock's `matchesJsonPath` uses), and the way
/// findings name a place in a document: `$[2].vetId`.
///
/// Supported: `$`, `.name`, `['name']`, `["name"]`, `[0]` (negative from the end), `[*]`, `.*`,
/// `..name`, `..*`, and filters `[?(@.x == 1)]` with `==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /re/i`,
/// existence `[?(@.x)]`, `!`, `&&`, `||` and parentheses. As in Jayway, a filter applied to an
/// object tests the object itself; applied to an array it selects the elements that pass.
/// A path may end in a function, as Jayway's: `$.items.length()`, `size()`, `min()`, `max()`,
/// `avg()`, `sum()`, applied to the node a definite path selects, or to the list of nodes an
/// indefinite one selects (`$..price.sum()`).
///
/// ```swift
/// let path = try JSONPath("$[?(@.vetId > 1)].firstName")
/// path.evaluate(on: pets)          // [.string("Rex"), ...]
/// JSONPath.root.appending(index: 2).appending(key: "vetId").description   // "$[2].vetId"
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// A member of an object: `.name` or `['name']`.
        case key(String)
        /// An element of an array: `[2]`; negative counts from the end.
        case index(Int)
        /// Every member or element: `[*]` or `.*`.
        case wildcard
        /// The node and all its descendants, then the named member of each (`..name`), or every
        /// descendant when nil (`..*`).
        case descendant(String?)
        /// A filter: `[?(@.x == 1)]`.
        case filter(JSONPathFilter)
    }

    /// The steps after `$`.
    public var components: [Component]
    /// The function the path ends with (`.length()`), if any: the path then selects one value
    /// computed from what its steps select.
    public var function: JSONPathFilter.Function?

    /// `$`, the document itself.
    public static let root = JSONPath(components: [])

    /// Creates a path from steps.
    public init(components: [Component], function: JSONPathFilter.Function? = nil) {
        self.components = components
        self.function = function
    }

    /// Parses a path such as `$.pets[0].name`.
    public init(_ text: String) throws(JSONPathError) {
        var parser = JSONPathParser(text)
        self = try parser.parsePath()
    }

    /// The path one member further.
    public func appending(key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// The path one element further.
    public func appending(index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// The path with every index replaced by `[*]`: what paths of repeated array items share.
    public var generalized: JSONPath {
        JSONPath(
            components: components.map {
                if case .index = $0 { return .wildcard }
                return $0
            })
    }

    /// Whether the path names at most one node (keys and indices only, or a function).
    public var isDefinite: Bool {
        function != nil || stepsAreDefinite
    }

    /// Whether the steps name at most one node (keys and indices only).
    var stepsAreDefinite: Bool {
        components.allSatisfy {
            switch $0 {
            case .key, .index: true
            default: false
            }
        }
    }

    /// The path in bracket-and-dot notation, `$[2].vetId`, with keys that are not plain
    /// identifiers quoted: `$['first name']`.
    public var description: String {
        var text = "$"
        for component in components { JSONPath.render(component, into: &text) }
        if let function { text += ".\(function.rawValue)()" }
        return text
    }

    static func render(_ component: Component, into text: inout String) {
        switch component {
        case .key(let key):
            if isIdentifier(key) {
                text += "." + key
            } else {
                text += "['" + key.replacingBackslashAndQuote() + "']"
            }
        case .index(let index): text += "[\(index)]"
        case .wildcard: text += "[*]"
        case .descendant(let key?):
            text += isIdentifier(key) ? ".." + key : "..['" + key.replacingBackslashAndQuote() + "']"
        case .descendant(nil): text += "..*"
        case .filter(let filter): text += "[?(\(filter.text))]"
        }
    }

    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return key.utf8.allSatisfy { isLetter($0) || $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

extension String {
    func replacingBackslashAndQuote() -> String {
        var result = ""
        for character in self {
            if character == "\\" || character == "'" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

/// A JSONPath expression that cannot be parsed: where and what was expected.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression.
    public let path: String
    /// The character offset of the problem.
    public let offset: Int
    /// What would have been valid there.
    public let expected: String
    /// What was there.
    public let found: String

    /// Creates an error.
    public init(path: String, offset: Int, expected: String, found: String) {
        self.path = path
        self.offset = offset
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "JSONPath '\(path)' at offset \(offset): expected \(expected), found \(found)"
    }
}
