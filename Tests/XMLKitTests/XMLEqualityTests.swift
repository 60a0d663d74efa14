import Testing
import XMLKit

/// `equalToXml`'s comparison as values: what is a difference, and where the first one is.
@Suite struct XMLEqualityTests {
    func difference(
        _ expected: String, _ actual: String, _ options: XMLEqualityOptions = XMLEqualityOptions()
    ) throws -> XMLDifference? {
        let strict = options.namespaceAwareness == .strict
        let equality = try XMLEquality(
            expected: XMLDocument(parsing: expected, strictNamespaces: strict), options: options)
        return equality.firstDifference(try XMLDocument(parsing: actual, strictNamespaces: strict))
    }

    @Test func whitespaceCommentsAndAttributeOrderDoNotCount() throws {
        #expect(
            try difference(
                "<a x=\"1\" y=\"2\">\n  <b> text </b>\n  <!-- note -->\n</a>", "<a y=\"2\" x=\"1\"><b>text</b></a>")
                == nil)
    }

    @Test func theFirstDifferenceHasItsPathAndBothValues() throws {
        let found = try difference(
            "<things><thing kind=\"tepid\"/><thing kind=\"tedious\"/></things>",
            "<things><thing kind=\"tepid\"/><thing kind=\"boring\"/></things>")
        #expect(
            found
                == XMLDifference(
                    type: .attrValue, path: "/things[1]/thing[2]/@kind", expected: "'tedious'", found: "'boring'"))
        let text = try difference("<a><b>one</b></a>", "<a><b>two</b></a>")
        #expect(text?.path == "/a[1]/b[1]/text()[1]")
        #expect(text?.type == .textValue)
        let missing = try difference("<a><b/><c/></a>", "<a><b/></a>")
        #expect(missing?.type == .childNodelistLength)
    }

    @Test func namespacesCompareByURINotPrefix() throws {
        #expect(try difference("<x:a xmlns:x=\"urn:1\"/>", "<y:a xmlns:y=\"urn:1\"/>") == nil)
        #expect(try difference("<x:a xmlns:x=\"urn:1\"/>", "<x:a xmlns:x=\"urn:2\"/>") != nil)
        let exempt = XMLEqualityOptions(exemptedComparisons: [.namespaceURI])
        #expect(try difference("<x:a xmlns:x=\"urn:1\"/>", "<x:a xmlns:x=\"urn:2\"/>", exempt) == nil)
        let none = XMLEqualityOptions(namespaceAwareness: .none)
        #expect(try difference("<x:a xmlns:x=\"urn:1\"/>", "<y:a xmlns:y=\"urn:1\"/>", none) != nil)
        #expect(try difference("<x:a/>", "<x:a/>", none) == nil)
    }

    @Test func siblingOrderAndSameNamedSiblings() throws {
        #expect(try difference("<a><one/><two/></a>", "<a><two/><one/></a>") == nil)
        #expect(try difference("<a><e>1</e><e>2</e></a>", "<a><e>2</e><e>1</e></a>") != nil)
        let anyOrder = XMLEqualityOptions(ignoreOrderOfSameNode: true)
        #expect(try difference("<a><e>1</e><e>2</e></a>", "<a><e>2</e><e>1</e></a>", anyOrder) == nil)
        #expect(try difference("<a><e>1</e><e>3</e></a>", "<a><e>2</e><e>1</e></a>", anyOrder) != nil)
    }

    @Test func placeholders() throws {
        let on = XMLEqualityOptions(placeholders: XMLPlaceholderDelimiters())
        #expect(try difference("<a>${xmlunit.ignore}</a>", "<a>123</a>", on) == nil)
        #expect(try difference("<a>${xmlunit.ignore}</a>", "<a/>", on) == nil)
        #expect(try difference("<a>${xmlunit.isNumber}</a>", "<a>-1.5e3</a>", on) == nil)
        #expect(try difference("<a>${xmlunit.isNumber}</a>", "<a>ten</a>", on) != nil)
        #expect(try difference("<a x=\"${xmlunit.matchesRegex([a-z]+)}\"/>", "<a x=\"abc\"/>", on) == nil)
        #expect(try difference("<a x=\"${xmlunit.matchesRegex([a-z]+)}\"/>", "<a x=\"ab1\"/>", on) != nil)
        #expect(try difference("<a x=\"${xmlunit.ignore}\"/>", "<a/>", on) == nil)
        #expect(try difference("<a x=\"${xmlunit.matchesRegex( [0-9]+ )}\"/>", "<a x=\" 42 \"/>", on) == nil)
        #expect(try difference("<a>${xmlunit.ignore}</a>", "<a>123</a>") != nil)
        let custom = XMLEqualityOptions(placeholders: XMLPlaceholderDelimiters(opening: #"#\{"#, closing: "}"))
        #expect(try difference("<a>#{xmlunit.ignore}</a>", "<a>123</a>", custom) == nil)
    }

    @Test func anUnknownPlaceholderOrBadDelimiterIsAnError() throws {
        let on = XMLEqualityOptions(placeholders: XMLPlaceholderDelimiters())
        #expect(throws: XMLPatternError.self) {
            try XMLEquality(expected: XMLDocument(parsing: "<a>${xmlunit.isDateTime}</a>"), options: on)
        }
        let bad = XMLEqualityOptions(placeholders: XMLPlaceholderDelimiters(opening: "("))
        #expect {
            try XMLEquality(expected: XMLDocument(parsing: "<a/>"), options: bad)
        } throws: { error in
            (error as? XMLPatternError)?.field == "placeholderOpeningDelimiterRegex"
        }
    }

    @Test func distanceGrowsWithTheDifferences() throws {
        let equality = try XMLEquality(expected: XMLDocument(parsing: "<a><b>1</b><c>2</c><d>3</d></a>"))
        let one = equality.distance(try XMLDocument(parsing: "<a><b>1</b><c>2</c><d>4</d></a>"))
        let two = equality.distance(try XMLDocument(parsing: "<a><b>1</b><c>5</c><d>4</d></a>"))
        #expect(equality.distance(try XMLDocument(parsing: "<a><b>1</b><c>2</c><d>3</d></a>")) == 0)
        #expect(one > 0 && one < two && two < 1)
    }

    @Test func manySiblingsCompareInLinearishTime() throws {
        let children = (0..<5_000).map { "<e\($0 % 100)>\($0)</e\($0 % 100)>" }.joined()
        let document = try XMLDocument(parsing: "<a>\(children)</a>")
        let equality = try XMLEquality(expected: document, options: XMLEqualityOptions(ignoreOrderOfSameNode: true))
        #expect(equality.firstDifference(document) == nil)
    }
}
