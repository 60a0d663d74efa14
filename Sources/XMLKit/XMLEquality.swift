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
package struct XMLEquality: Sendable {
    /// The options it compares with.
    package let options: XMLEqualityOptions
    let expected: ComparedElement
    let counted: Set<XMLComparisonType>

    /// Prepares the comparison: finds the placeholders in the expected document.
    /// - Throws: ``XMLPatternError`` for a delimiter that is not a regular expression or a
    ///   placeholder petmock does not support.
    package init(expected: XMLDocument, options: XMLEqualityOptions = XMLEqualityOptions()) throws(XMLPatternError) {
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
    package func firstDifference(_ actual: XMLDocument) -> XMLDifference? {
        var walk = ComparisonWalk(counted: counted, options: options, stopAtFirst: true)
        walk.compareRoots(expected, actual: compared(actual))
        return walk.first
    }

    /// The share of counted comparisons that differ, from 0 (equal) to 1.
    package func distance(_ actual: XMLDocument) -> Double {
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
package struct XMLEqualityOptions: Sendable, Hashable {
    /// How namespaces are read and compared.
    package var namespaceAwareness: XMLNamespaceAwareness
    /// Comparisons that do not count (WireMock's `exemptedComparisons`).
    package var exemptedComparisons: Set<XMLComparisonType>
    /// Whether same-named siblings may come in any order (`ignoreOrderOfSameNode`).
    package var ignoreOrderOfSameNode: Bool
    /// Placeholder delimiters when placeholders are enabled (`enablePlaceholders`), else nil.
    package var placeholders: XMLPlaceholderDelimiters?

    /// Creates options (by default WireMock's: strict namespaces, nothing exempted, order of
    /// same-named siblings significant, no placeholders).
    package init(
        namespaceAwareness: XMLNamespaceAwareness = .strict, exemptedComparisons: Set<XMLComparisonType> = [],
        ignoreOrderOfSameNode: Bool = false, placeholders: XMLPlaceholderDelimiters? = nil
    ) {
        self.namespaceAwareness = namespaceAwareness
        self.exemptedComparisons = exemptedComparisons
        self.ignoreOrderOfSameNode = ignoreOrderOfSameNode
        self.placeholders = placeholders
    }
}
