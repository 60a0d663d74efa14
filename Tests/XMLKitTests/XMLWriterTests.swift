import Testing

@testable import XMLKit

/// XMLKit's writer: escaping of text and attribute values, names checked, characters XML 1.0
/// cannot hold refused, and what it writes read back by the parser as the same tree.
@Suite struct XMLWriterTests {
    @Test func textAndAttributesAreEscaped() throws {
        let element = XMLElement(
            name: XMLName(localName: "a"),
            attributes: [XMLAttribute(name: XMLName(localName: "title"), value: "x\"<&>\t\n\ry")],
            children: [.text("1 < 2 && 3 > 2 ]]> \r")])
        let text = try XMLWriter.document(element)
        #expect(
            text == #"<?xml version="1.0" encoding="UTF-8"?><a title="x&quot;&lt;&amp;&gt;&#9;&#10;&#13;y">"#
                + "1 &lt; 2 &amp;&amp; 3 &gt; 2 ]]&gt; &#13;</a>")
        let parsed = try XMLDocument(parsing: text)
        #expect(parsed.root.attributes.first?.value == "x\"<&>\t\n\ry")
        #expect(parsed.root.textContent == "1 < 2 && 3 > 2 ]]> \r")
    }

    @Test func namespacesAndPrefixesAreDeclaredAndReadBack() throws {
        let element = XMLElement(
            name: XMLName(prefix: "p", localName: "item", namespaceURI: "urn:x"),
            attributes: [XMLAttribute(name: XMLName(prefix: "p", localName: "id", namespaceURI: "urn:x"), value: "7")],
            namespaces: [XMLNamespace(prefix: "p", uri: "urn:x")],
            children: [.element(XMLElement(name: XMLName(localName: "empty")))])
        let text = try XMLWriter.document(element)
        #expect(text.hasSuffix(#"<p:item xmlns:p="urn:x" p:id="7"><empty/></p:item>"#))
        let parsed = try XMLDocument(parsing: text)
        #expect(parsed.root.name.namespaceURI == "urn:x")
        #expect(parsed.root.attributes.first?.name.localName == "id")
    }

    @Test(arguments: ["1abc", "a b", "a:b", "", "-x", "a<b"])
    func aNameXMLCannotHoldIsRefused(_ name: String) {
        #expect(throws: XMLError.self) { try XMLWriter.document(XMLElement(name: XMLName(localName: name))) }
    }

    @Test(arguments: ["item", "_x", "a.b-c_1", "ünïcode", "名前"])
    func namesXMLAllowsAreWritten(_ name: String) throws {
        let text = try XMLWriter.document(XMLElement(name: XMLName(localName: name)))
        #expect(try XMLDocument(parsing: text).root.name.localName == name)
    }

    @Test(arguments: ["\u{0}", "a\u{1}b", "\u{FFFE}", "\u{1B}[31m"])
    func charactersXMLCannotHoldAreRefusedInTextAndAttributes(_ value: String) {
        #expect(throws: XMLError.self) {
            try XMLWriter.document(XMLElement(name: XMLName(localName: "a"), children: [.text(value)]))
        }
        #expect(throws: XMLError.self) {
            try XMLWriter.document(
                XMLElement(
                    name: XMLName(localName: "a"),
                    attributes: [XMLAttribute(name: XMLName(localName: "v"), value: value)]))
        }
    }

    @Test func commentsCDATAAndInstructionsThatWouldEndEarlyAreRefused() {
        for child: XMLNode in [
            .cdata("a]]>b"), .comment("a--b"), .comment("a-"), .processingInstruction(target: "p", data: "?>"),
        ] {
            #expect(throws: XMLError.self) {
                try XMLWriter.document(XMLElement(name: XMLName(localName: "a"), children: [child]))
            }
        }
    }

    @Test func nestingIsBounded() throws {
        var element = XMLElement(name: XMLName(localName: "leaf"))
        for _ in 0..<XMLWriter.maximumDepth {
            element = XMLElement(name: XMLName(localName: "n"), children: [.element(element)])
        }
        #expect(throws: XMLError.self) { try XMLWriter.document(element) }
    }
}
