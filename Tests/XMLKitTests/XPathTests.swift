import Testing
import XMLKit

/// XPath through libxml2: results as values, namespaces, and bounds.
@Suite struct XPathTests {
    let planets = "<solar-system><planet name='Earth' position='3'/><planet name='Venus' position='2'/></solar-system>"

    func evaluate(_ expression: String, _ xml: String, namespaces: [XMLNamespace] = []) throws -> XPathResult {
        try XPathExpression(expression, namespaces: namespaces).evaluate(Array(xml.utf8))
    }

    @Test func resultKinds() throws {
        #expect(try evaluate("//planet[@name='Earth']/@position", planets) == .nodes(["3"]))
        #expect(try evaluate("//planet/@name", planets).values == ["Earth", "Venus"])
        #expect(try evaluate("count(//planet) = 2", planets) == .boolean(true))
        #expect(try evaluate("count(//planet)", planets) == .number("2"))
        #expect(try evaluate("string(//planet/@name)", planets) == .string("Earth"))
        #expect(try evaluate("//star", planets).isTruthy == false)
        #expect(try evaluate("/solar-system/planet[1]", planets).values == [#"<planet name="Earth" position="3"/>"#])
    }

    @Test func namespacesByPrefixOrByLocalName() throws {
        let xml = "<t:thing xmlns:t='http://things' xmlns:s='http://subthings'><s:sub>The stuff</s:sub></t:thing>"
        #expect(try evaluate("/thing/sub[.='The stuff']", xml).isTruthy)
        let declared = [XMLNamespace(prefix: "x", uri: "http://subthings")]
        #expect(try evaluate("//x:sub[.='The stuff']", xml, namespaces: declared).isTruthy)
        #expect(try evaluate("//sub", xml, namespaces: declared).isTruthy == false)
        #expect(throws: XMLError.self) { try evaluate("//y:sub", xml, namespaces: declared) }
    }

    @Test func oneDocumentServesManyExpressions() throws {
        let document = try XPathDocument(parsing: Array(planets.utf8), localNames: true)
        let names = try XPathExpression("//planet/@name").evaluate(on: document)
        let count = try XPathExpression("count(//planet)").evaluate(on: document)
        #expect(names.values == ["Earth", "Venus"] && count == .number("2"))
    }

    @Test func badExpressionsAreRefusedWhenCompiled() {
        #expect(throws: XMLError.self) { try XPathExpression(#"//\\&&&&&"#) }
        #expect(throws: XMLError.self) { try XPathExpression("//a[") }
        #expect(throws: XMLError.self) { try XPathExpression(String(repeating: "/a", count: 3000)) }
        #expect(throws: XMLError.self) { try XPathExpression("//a", namespaces: [XMLNamespace(prefix: nil, uri: "u")]) }
    }

    @Test func evaluationIsBounded() throws {
        let xml = "<a>" + String(repeating: "<b><c/><c/><c/></b>", count: 300) + "</a>"
        let limits = XMLLimits(maxXPathOperations: 10_000)
        let heavy = try XPathExpression("count(//*[count(//*) > count(preceding::*)])")
        #expect(throws: XMLError.self) { try heavy.evaluate(Array(xml.utf8), limits: limits) }
        #expect(throws: XMLError.self) { try XPathExpression("//a").evaluate(Array("not xml".utf8)) }
    }
}
