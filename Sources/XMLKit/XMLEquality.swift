/// WireMock's `equalToXml`: an expected document compared with actual ones the way XMLUnit
/// compares them for WireMock (whitespace-only text and comments ignored, text trimmed,
/// attribute order ignored, children paired by name after sorting by local name so sibling
/// order of differently named elements does not matter, namespace prefixes not compared,
/// placeholders in expected values), counting only the comparisons WireMock counts.
///
/// ```swift
/// let equality = try XMLEquality(expected: XMLDocument(parsing: "<a>${xmlunit.ignore}</a>"),
///                                options: XMLEqualityOptions(placeholders: XMLPlaceholderDelimiters()))
/// equality.firstDifference(try XMLDocument(parsing: "<a>42</a>"))  // nil: equal
/// ```
public struct XMLEquality: Sendable {
    /// The options it compares with.
    public let options: XMLEqualityOptions
    let expected: ComparedElement
    let counted: Set<XMLComparisonType>

    /// Prepares the comparison: finds the placeholders in the expected document.
    /// - Throws: ``XMLPatternError`` for a delimiter that is not a regular expression or a
    ///   placeholder petmock does not support.
    public init(expected: XMLDocument, options: XMLEqualityOptions = XMLEqualityOptions()) throws(XMLPatternError) {
        self.options = options
        let reader = try options.placeholders.map { (delimiters) throws(XMLPatternError) in
            try XMLPlaceholderReader(delimiters)
        }
        let builder = ComparedTreeBuilder(
            awareness: options.namespaceAwareness, placeholders: reader, wantsTextContent: options.ignoreOrderOfSameNode
        )
        self.expected = try builder.element(expected.root, position: 1)
        counted = XMLComparisonType.counted.subtracting(options.exemptedComparisons)
    }

    /// The first difference WireMock would count, nil when the documents are equal.
    public func firstDifference(_ actual: XMLDocument) -> XMLDifference? {
        var walk = ComparisonWalk(counted: counted, options: options, stopAtFirst: true)
        walk.compareRoots(expected, actual: compared(actual))
        return walk.first
    }

    /// The share of counted comparisons that differ, from 0 (equal) to 1.
    public func distance(_ actual: XMLDocument) -> Double {
        var walk = ComparisonWalk(counted: counted, options: options, stopAtFirst: false)
        walk.compareRoots(expected, actual: compared(actual))
        guard walk.total > 0 else { return walk.first == nil ? 0 : 1 }
        return Double(walk.differences) / Double(walk.total)
    }

    private func compared(_ document: XMLDocument) -> ComparedElement {
        let builder = ComparedTreeBuilder(
            awareness: options.namespaceAwareness, placeholders: nil, wantsTextContent: options.ignoreOrderOfSameNode)
        // Without a placeholder reader no value can fail to read.
        return (try? builder.element(document.root, position: 1))
            ?? ComparedElement(
                namespaceURI: nil, localName: "", displayName: "", position: 1, attributes: [], schemaLocation: nil,
                noNamespaceSchemaLocation: nil, children: [], textContent: "")
    }
}

/// What `equalToXml` compares, besides the expected document.
public struct XMLEqualityOptions: Sendable, Hashable {
    /// How namespaces are read and compared.
    public var namespaceAwareness: XMLNamespaceAwareness
    /// Comparisons that do not count (WireMock's `exemptedComparisons`).
    public var exemptedComparisons: Set<XMLComparisonType>
    /// Whether same-named siblings may come in any order (`ignoreOrderOfSameNode`).
    public var ignoreOrderOfSameNode: Bool
    /// Placeholder delimiters when placeholders are enabled (`enablePlaceholders`), else nil.
    public var placeholders: XMLPlaceholderDelimiters?

    /// Creates options (by default WireMock's: strict namespaces, nothing exempted, order of
    /// same-named siblings significant, no placeholders).
    public init(
        namespaceAwareness: XMLNamespaceAwareness = .strict, exemptedComparisons: Set<XMLComparisonType> = [],
        ignoreOrderOfSameNode: Bool = false, placeholders: XMLPlaceholderDelimiters? = nil
    ) {
        self.namespaceAwareness = namespaceAwareness
        self.exemptedComparisons = exemptedComparisons
        self.ignoreOrderOfSameNode = ignoreOrderOfSameNode
        self.placeholders = placeholders
    }
}

/// One comparison of two compared trees, counting what WireMock counts.
struct ComparisonWalk {
    let counted: Set<XMLComparisonType>
    let options: XMLEqualityOptions
    let stopAtFirst: Bool
    var total = 0
    var differences = 0
    var first: XMLDifference?

    /// ``counted`` as bits (a set of raw-value enums hashes their strings).
    let countedMask: UInt32

    init(counted: Set<XMLComparisonType>, options: XMLEqualityOptions, stopAtFirst: Bool) {
        self.counted = counted
        countedMask = counted.reduce(0) { $0 | $1.bit }
        self.options = options
        self.stopAtFirst = stopAtFirst
    }

    var done: Bool { stopAtFirst && first != nil }

    /// Records one comparison (only counted kinds, with an expected side, count).
    mutating func record(
        _ type: XMLComparisonType, equal: Bool, path: @autoclosure () -> String, expected: @autoclosure () -> String,
        found: @autoclosure () -> String
    ) {
        guard countedMask & type.bit != 0 else { return }
        total += 1
        guard !equal else { return }
        differences += 1
        if first == nil { first = XMLDifference(type: type, path: path(), expected: expected(), found: found()) }
    }

    /// Whether two elements pair up as the same child (XMLUnit's `byName` selector; a
    /// namespace or tag name comparison that is exempted does not keep them apart).
    func pairs(_ expected: ComparedElement, _ actual: ComparedElement) -> Bool {
        (countedMask & XMLComparisonType.namespaceURI.bit == 0 || expected.namespaceURI == actual.namespaceURI)
            && (countedMask & XMLComparisonType.elementTagName.bit == 0 || expected.localName == actual.localName)
    }

    mutating func compareRoots(_ expected: ComparedElement, actual: ComparedElement) {
        let path = PathLink(parent: nil, kind: .element, name: expected.displayName, position: 1)
        guard pairs(expected, actual) else {
            record(
                .childLookup, equal: false, path: "/", expected: "root element <\(expected.displayName)>",
                found: "<\(actual.displayName)>")
            return
        }
        compareElements(expected, actual, path: path)
    }

    /// A value for a difference: quoted, on one line, cut to 60 characters.
    static func quoted(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return "'" + String(cut.map { $0.isNewline || $0 == "\t" ? " " : $0 }) + "'"
    }

    func valuesEqual(_ expected: ComparedValue, _ actual: String) -> Bool {
        if let placeholder = expected.placeholder { return placeholder.accepts(actual) }
        return expected.text == actual
    }

    mutating func compareElements(_ expected: ComparedElement, _ actual: ComparedElement, path: PathLink) {
        if expected.namespaceURI != nil {
            record(
                .namespaceURI, equal: expected.namespaceURI == actual.namespaceURI, path: path.rendered,
                expected: "namespace \(Self.quoted(expected.namespaceURI ?? ""))",
                found: actual.namespaceURI.map { "namespace \(Self.quoted($0))" } ?? "no namespace")
        }
        record(
            .elementTagName, equal: expected.localName == actual.localName, path: path.rendered,
            expected: "<\(expected.displayName)>", found: "<\(actual.displayName)>")
        if done { return }
        compareAttributes(expected, actual, path: path)
        if done { return }
        compareChildren(expected, actual, path: path)
    }

    mutating func compareAttributes(_ expected: ComparedElement, _ actual: ComparedElement, path: PathLink) {
        if expected.attributes.isEmpty && actual.attributes.isEmpty && expected.schemaLocation == nil
            && expected.noNamespaceSchemaLocation == nil
        {
            record(.elementNumAttributes, equal: true, path: "", expected: "", found: "")
            return
        }
        // An ignored attribute may be absent (XMLUnit's placeholder rule).
        let required = expected.attributes.filter { attribute in
            if case .ignore = attribute.value.placeholder {
                return actual.attributes.contains {
                    $0.namespaceURI == attribute.namespaceURI && $0.localName == attribute.localName
                }
            }
            return true
        }
        record(
            .elementNumAttributes, equal: required.count == actual.attributes.count, path: path.rendered,
            expected: "\(required.count) attribute(s)", found: "\(actual.attributes.count)")
        for attribute in required {
            if done { return }
            let name = attribute.displayName
            guard
                let match = actual.attributes.first(where: {
                    $0.namespaceURI == attribute.namespaceURI && $0.localName == attribute.localName
                })
            else {
                record(
                    .attrNameLookup, equal: false, path: path.rendered + "/@" + name,
                    expected: "attribute \(attribute.displayName)",
                    found: "none")
                continue
            }
            record(
                .attrValue, equal: valuesEqual(attribute.value, match.value.text), path: path.rendered + "/@" + name,
                expected: Self.quoted(attribute.value.text), found: Self.quoted(match.value.text))
        }
        if let expectedValue = expected.schemaLocation {
            compareSchemaLocation(
                .schemaLocation, expectedValue, actual.schemaLocation, path: path.rendered + "/@xsi:schemaLocation")
        }
        if let expectedValue = expected.noNamespaceSchemaLocation {
            compareSchemaLocation(
                .noNamespaceSchemaLocation, expectedValue, actual.noNamespaceSchemaLocation,
                path: path.rendered + "/@xsi:noNamespaceSchemaLocation")
        }
    }

    private mutating func compareSchemaLocation(
        _ type: XMLComparisonType, _ expected: ComparedValue, _ actual: ComparedValue?, path: String
    ) {
        record(
            type, equal: actual.map { valuesEqual(expected, $0.text) } ?? false, path: path,
            expected: Self.quoted(expected.text), found: actual.map { Self.quoted($0.text) } ?? "none")
    }
}

/// Where the walk is, as a chain to the root, made into an XPath only for a difference.
final class PathLink: Sendable {
    enum Kind: Sendable {
        case element
        case text
        case instruction
    }

    let parent: PathLink?
    let kind: Kind
    let name: String
    let position: Int

    init(parent: PathLink?, kind: Kind, name: String, position: Int) {
        self.parent = parent
        self.kind = kind
        self.name = name
        self.position = position
    }

    /// The XPath, `/things[1]/thing[2]`.
    var rendered: String {
        var steps: [String] = []
        var link: PathLink? = self
        while let here = link {
            switch here.kind {
            case .element: steps.append("\(here.name)[\(here.position)]")
            case .text: steps.append("text()[\(here.position)]")
            case .instruction: steps.append("processing-instruction()[\(here.position)]")
            }
            link = here.parent
        }
        return "/" + steps.reversed().joined(separator: "/")
    }
}
