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
