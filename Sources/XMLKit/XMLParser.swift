import CXML

extension XMLDocument {
    /// Parses a document through libxml2, safely: no network, no DTD or external entity
    /// loading, no entity expansion (a reference to a declared entity is an error), within
    /// the limits (size, depth, node count).
    ///
    /// - Parameter strictNamespaces: whether a prefix bound to no namespace is an error (as it
    ///   is in namespace-aware XML); without, such a name is kept as written.
    /// - Throws: ``XMLError`` with the line and column of the first problem.
    package init(parsing bytes: [UInt8], limits: XMLLimits = .standard, strictNamespaces: Bool = true) throws(XMLError)
    {
        let document = try LibXML.read(bytes, limits: limits, strictNamespaces: strictNamespaces)
        defer { xmlFreeDoc(document) }
        var converter = TreeConverter(limits: limits)
        self = try converter.document(document)
    }

    /// Parses a document from text (see ``init(parsing:limits:strictNamespaces:)-(_,_,_)``).
    package init(parsing text: String, limits: XMLLimits = .standard, strictNamespaces: Bool = true) throws(XMLError) {
        try self.init(parsing: Array(text.utf8), limits: limits, strictNamespaces: strictNamespaces)
    }
}

/// Copies a libxml2 tree into XMLKit's value tree, counting nodes and depth.
struct TreeConverter {
    let limits: XMLLimits
    var nodes = 0

    init(limits: XMLLimits) {
        self.limits = limits
    }

    mutating func document(_ document: xmlDocPtr) throws(XMLError) -> XMLDocument {
        var prolog: [XMLNode] = []
        var epilog: [XMLNode] = []
        var root: XMLElement?
        var child = document.pointee.children
        while let node = child {
            child = node.pointee.next
            if node.pointee.type == XML_ELEMENT_NODE {
                root = try element(node, depth: 1)
            } else if let converted = try self.node(node, depth: 1) {
                if root == nil { prolog.append(converted) } else { epilog.append(converted) }
            }
        }
        guard let root else { throw XMLError(line: 0, column: 0, message: "no root element") }
        return XMLDocument(root: root, prolog: prolog, epilog: epilog)
    }

    private mutating func count(_ node: xmlNodePtr) throws(XMLError) {
        nodes += 1
        if nodes > limits.maxNodes {
            throw XMLError(
                line: Int(xmlGetLineNo(node)), column: 0, message: "more than \(limits.maxNodes) nodes")
        }
    }

    private mutating func node(_ node: xmlNodePtr, depth: Int) throws(XMLError) -> XMLNode? {
        switch node.pointee.type {
        case XML_ELEMENT_NODE: return .element(try element(node, depth: depth))
        case XML_TEXT_NODE:
            try count(node)
            return .text(String(xml: node.pointee.content) ?? "")
        case XML_CDATA_SECTION_NODE:
            try count(node)
            return .cdata(String(xml: node.pointee.content) ?? "")
        case XML_COMMENT_NODE:
            try count(node)
            return .comment(String(xml: node.pointee.content) ?? "")
        case XML_PI_NODE:
            try count(node)
            return .processingInstruction(
                target: String(xml: node.pointee.name) ?? "", data: String(xml: node.pointee.content) ?? "")
        case XML_ENTITY_REF_NODE: throw entityError(node)
        default: return nil  // DTD, XInclude markers: not content
        }
    }

    private func entityError(_ node: xmlNodePtr) -> XMLError {
        XMLError(
            line: Int(xmlGetLineNo(node)), column: 0,
            message: "reference to entity '&\(String(xml: node.pointee.name) ?? "");': only the five predefined "
                + "entities and character references are read (declared entities are not expanded)")
    }

    private static func name(_ node: xmlNodePtr) -> XMLName {
        let local = String(xml: node.pointee.name) ?? ""
        guard let ns = node.pointee.ns else { return XMLName(localName: local) }
        return XMLName(
            prefix: String(xml: ns.pointee.prefix), localName: local, namespaceURI: String(xml: ns.pointee.href))
    }

    private mutating func element(_ node: xmlNodePtr, depth: Int) throws(XMLError) -> XMLElement {
        try count(node)
        guard depth <= limits.maxDepth else {
            throw XMLError(
                line: Int(xmlGetLineNo(node)), column: 0, message: "elements nested deeper than \(limits.maxDepth)")
        }
        var result = XMLElement(name: Self.name(node))
        var declaration = node.pointee.nsDef
        while let ns = declaration {
            declaration = ns.pointee.next
            result.namespaces.append(
                XMLNamespace(prefix: String(xml: ns.pointee.prefix), uri: String(xml: ns.pointee.href) ?? ""))
        }
        var property = node.pointee.properties
        while let attribute = property {
            property = attribute.pointee.next
            try count(node)
            var value = ""
            var part = attribute.pointee.children
            while let piece = part {
                part = piece.pointee.next
                if piece.pointee.type == XML_ENTITY_REF_NODE { throw entityError(piece) }
                value += String(xml: piece.pointee.content) ?? ""
            }
            let local = String(xml: attribute.pointee.name) ?? ""
            let name =
                attribute.pointee.ns.map {
                    XMLName(
                        prefix: String(xml: $0.pointee.prefix), localName: local,
                        namespaceURI: String(xml: $0.pointee.href))
                } ?? XMLName(localName: local)
            result.attributes.append(XMLAttribute(name: name, value: value))
        }
        var child = node.pointee.children
        while let next = child {
            child = next.pointee.next
            if let converted = try self.node(next, depth: depth + 1) { result.children.append(converted) }
        }
        return result
    }
}
