import CXML

/// What an XPath expression evaluated to.
package enum XPathResult: Sendable, Hashable {
    /// A node set: each node as text (an element as XML, another node as its value), or only
    /// as many empty strings as nodes when not serialised.
    case nodes([String])
    /// A boolean (`count(//a) = 2`).
    case boolean(Bool)
    /// A number (`count(//a)`), as XPath writes it (`2`, `2.5`, `NaN`).
    case number(String)
    /// A string (`string(//a)`).
    case string(String)

    /// Whether the result selects something: a non-empty node set, `true`, a number other than
    /// 0 and NaN, a non-empty string (XPath's `boolean()`).
    package var isTruthy: Bool {
        switch self {
        case .nodes(let nodes): !nodes.isEmpty
        case .boolean(let value): value
        case .number(let text): text != "0" && text != "-0" && text != "NaN"
        case .string(let text): !text.isEmpty
        }
    }

    /// The values a sub-matcher sees: each node's text, or the one value.
    package var values: [String] {
        switch self {
        case .nodes(let nodes): nodes
        case .boolean(let value): [value ? "true" : "false"]
        case .number(let text), .string(let text): [text]
        }
    }

    init(_ object: xmlXPathObjectPtr, document: xmlDocPtr, limits: XMLLimits, serializing: Bool) throws(XMLError) {
        switch object.pointee.type {
        case XPATH_NODESET, XPATH_XSLT_TREE:
            let count = Int(cxml_nodeset_count(object))
            guard serializing else {
                self = .nodes(Array(repeating: "", count: count))
                return
            }
            var values: [String] = []
            var budget = limits.maxBytes * 4
            for index in 0..<count {
                guard let node = cxml_nodeset_item(object, Int32(index)) else { continue }
                let text =
                    node.pointee.type == XML_ELEMENT_NODE
                    ? cxml_serialize(document, node) : xmlXPathCastNodeToString(node)
                defer { cxml_free(text) }
                let value = String(xml: text) ?? ""
                budget -= value.utf8.count
                guard budget >= 0 else {
                    throw XMLError(
                        line: 0, column: 0,
                        message: "the selected nodes' text is over \(limits.maxBytes * 4) bytes in all")
                }
                values.append(value)
            }
            self = .nodes(values)
        case XPATH_BOOLEAN: self = .boolean(object.pointee.boolval != 0)
        case XPATH_NUMBER:
            let text = xmlXPathCastToString(object)
            defer { cxml_free(text) }
            self = .number(String(xml: text) ?? "NaN")
        default:
            let text = xmlXPathCastToString(object)
            defer { cxml_free(text) }
            self = .string(String(xml: text) ?? "")
        }
    }
}
