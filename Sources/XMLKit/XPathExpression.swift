import CXML

/// An XPath 1.0 expression (libxml2's engine) with the namespace prefixes it may use, as
/// WireMock's `matchesXPath` and `xPathNamespaces` give them.
///
/// Without namespaces the document is read as WireMock reads it then: names are matched by
/// their local part (`/thing/subThing` selects `<t:thing><s:subThing>`), and a prefix bound to
/// nothing is no error. With namespaces, the document must be namespace-well-formed and the
/// expression names elements by the declared prefixes.
///
/// ```swift
/// let xpath = try XPathExpression("//planet[@name='Earth']/@position")
/// try xpath.evaluate(Array(body.utf8)).values  // ["3"]
/// ```
package struct XPathExpression: Sendable, Hashable {
    /// The expression.
    package let expression: String
    /// The prefixes the expression uses, with their URIs.
    package let namespaces: [XMLNamespace]

    /// Checks the expression compiles (prefixes are resolved when it is evaluated).
    /// - Throws: ``XMLError`` naming what libxml2 could not read, or a prefix without one.
    package init(_ expression: String, namespaces: [XMLNamespace] = [], limits: XMLLimits = .standard) throws(XMLError)
    {
        guard expression.utf8.count <= limits.maxXPathLength else {
            throw XMLError(
                line: 0, column: 0,
                message: "expression of \(expression.utf8.count) bytes is over the limit of \(limits.maxXPathLength)")
        }
        if let unnamed = namespaces.first(where: { ($0.prefix ?? "").isEmpty }) {
            throw XMLError(line: 0, column: 0, message: "namespace '\(unnamed.uri)' needs a prefix")
        }
        self.expression = expression
        self.namespaces = namespaces
        LibXML.ensureInitialized()
        guard let document = xmlNewDoc(nil) else { throw XMLError(line: 0, column: 0, message: "out of memory") }
        defer { xmlFreeDoc(document) }
        var first = cxml_first_error()
        guard let context = cxml_xpath_context(document, &first, UInt(limits.maxXPathOperations)) else {
            throw XMLError(line: 0, column: 0, message: "out of memory")
        }
        defer { xmlXPathFreeContext(context) }
        guard let compiled = xmlXPathCtxtCompile(context, expression) else {
            throw Self.error(first, fallback: "not an XPath 1.0 expression")
        }
        xmlXPathFreeCompExpr(compiled)
    }

    static func error(_ first: cxml_first_error, fallback: String) -> XMLError {
        let error = LibXML.error(first, fallback: fallback)
        // libxml2 gives XPath errors no line; the column is not kept either.
        return XMLError(line: 0, column: 0, message: error.message)
    }

    /// Evaluates the expression on a document.
    ///
    /// - Parameter serializingNodes: whether node results are wanted as text (an element is
    ///   its XML, an attribute or text node its value); without, nodes are only counted.
    /// - Throws: ``XMLError`` when the document is not XML, a prefix is undeclared, or the
    ///   evaluation is over its limits.
    package func evaluate(
        _ bytes: [UInt8], limits: XMLLimits = .standard, serializingNodes: Bool = true
    ) throws(XMLError) -> XPathResult {
        let document = try XPathDocument(parsing: bytes, limits: limits, localNames: usesLocalNames)
        return try evaluate(on: document, limits: limits, serializingNodes: serializingNodes)
    }

    /// Whether the expression reads documents by local names (it declares no namespaces):
    /// the ``XPathDocument`` it is evaluated on must be read the same way.
    package var usesLocalNames: Bool { namespaces.isEmpty }

    /// Evaluates the expression on a document already read (see ``usesLocalNames``).
    /// - Throws: ``XMLError`` when a prefix is undeclared or the evaluation is over its limits.
    package func evaluate(
        on document: XPathDocument, limits: XMLLimits = .standard, serializingNodes: Bool = true
    ) throws(XMLError) -> XPathResult {
        precondition(document.localNames == usesLocalNames, "the document was read for another kind of expression")
        var first = cxml_first_error()
        guard let context = cxml_xpath_context(document.document, &first, UInt(limits.maxXPathOperations)) else {
            throw XMLError(line: 0, column: 0, message: "out of memory")
        }
        defer { xmlXPathFreeContext(context) }
        for namespace in namespaces {
            xmlXPathRegisterNs(context, namespace.prefix ?? "", namespace.uri)
        }
        guard let object = xmlXPathEval(expression, context) else {
            throw Self.error(first, fallback: "the expression could not be evaluated")
        }
        defer { xmlXPathFreeObject(object) }
        return try XPathResult(object, document: document.document, limits: limits, serializing: serializingNodes)
    }
}

/// A document in libxml2's form, read once for any number of XPath evaluations (each with
/// its own context). Not shared between threads: it belongs to the request that read it.
package final class XPathDocument {
    let document: xmlDocPtr
    /// Whether names were reduced to local names (for expressions without namespaces).
    package let localNames: Bool

    /// Reads a document as ``XPathExpression/evaluate(_:limits:serializingNodes:)`` does:
    /// safely (see ``XMLDocument/init(parsing:limits:strictNamespaces:)-(_,_,_)``), with
    /// namespaces strict unless `localNames`.
    package init(parsing bytes: [UInt8], limits: XMLLimits = .standard, localNames: Bool) throws(XMLError) {
        document = try LibXML.read(bytes, limits: limits, strictNamespaces: !localNames)
        self.localNames = localNames
        if localNames { cxml_strip_namespaces(xmlDocGetRootElement(document)) }
    }

    deinit {
        xmlFreeDoc(document)
    }
}
