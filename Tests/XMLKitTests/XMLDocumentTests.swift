import Testing
import XMLKit

/// Reading documents through libxml2 into the value tree, and refusing what is unsafe.
@Suite struct XMLDocumentTests {
    @Test func readsElementsAttributesNamespacesAndText() throws {
        let document = try XMLDocument(
            parsing: """
                <?xml version="1.0" encoding="utf-8"?>
                <!-- before -->
                <s:Envelope xmlns:s="urn:soap" id="7"><s:Body>Hi &amp; bye<![CDATA[<raw>]]><?pi data?></s:Body></s:Envelope>
                """)
        #expect(document.prolog == [.comment(" before ")])
        let root = document.root
        #expect(root.name == XMLName(prefix: "s", localName: "Envelope", namespaceURI: "urn:soap"))
        #expect(root.namespaces == [XMLNamespace(prefix: "s", uri: "urn:soap")])
        #expect(root.attributes == [XMLAttribute(name: XMLName(localName: "id"), value: "7")])
        guard case .element(let body) = root.children.first else {
            Issue.record("no body: \(root.children)")
            return
        }
        #expect(
            body.children == [
                .text("Hi & bye"), .cdata("<raw>"), .processingInstruction(target: "pi", data: "data"),
            ])
        #expect(root.textContent == "Hi & bye<raw>")
    }

    @Test(arguments: [
        ("<a>", 1), ("<a></b>", 1), ("badly-formed >", 1), ("<a>\n<b x=1/></a>", 2), ("", 0),
    ])
    func malformedDocumentsGiveTheirPlace(text: String, line: Int) {
        #expect {
            _ = try XMLDocument(parsing: text)
        } throws: { error in
            guard let error = error as? XMLError else { return false }
            return error.line == line && !error.message.isEmpty
        }
    }

    @Test func anUnboundPrefixIsAnErrorOnlyWhenStrict() throws {
        #expect(throws: XMLError.self) { try XMLDocument(parsing: "<p:a/>") }
        let lax = try XMLDocument(parsing: "<p:a/>", strictNamespaces: false)
        #expect(lax.root.name.qualifiedName == "p:a")
    }

    @Test func externalEntitiesAndDTDsAreNeverLoaded() throws {
        // An external DTD is named but not fetched; an external entity is refused, not read.
        let withDTD = try XMLDocument(
            parsing: #"<!DOCTYPE r SYSTEM "https://thishostname.doesnotexist.com/one.dtd"><r/>"#)
        #expect(withDTD.root.name.localName == "r")
        let xxe = #"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
        #expect {
            _ = try XMLDocument(parsing: xxe)
        } throws: { error in
            !"\(error)".contains("root:")
        }
    }

    @Test func entityExpansionIsRefused() {
        var bomb = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            bomb += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        bomb += "]><lolz>&lol9;</lolz>"
        #expect(throws: XMLError.self) { try XMLDocument(parsing: bomb) }
        let small = #"<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>"#
        #expect(throws: XMLError.self) { try XMLDocument(parsing: small) }
    }

    @Test func limitsBoundSizeDepthAndNodes() {
        let limits = XMLLimits(maxBytes: 64, maxDepth: 3, maxNodes: 5)
        #expect(throws: XMLError.self) {
            try XMLDocument(parsing: "<a>" + String(repeating: "x", count: 100) + "</a>", limits: limits)
        }
        #expect(throws: XMLError.self) { try XMLDocument(parsing: "<a><b><c><d/></c></b></a>", limits: limits) }
        #expect(throws: XMLError.self) { try XMLDocument(parsing: "<a><b/><b/><b/><b/><b/></a>", limits: limits) }
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        #expect(throws: XMLError.self) { try XMLDocument(parsing: deep) }
    }
}
