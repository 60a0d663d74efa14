/// A name of an element or attribute: its prefix as written, its local part and the
/// namespace URI the prefix is bound to (nil for none).
package struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The prefix as written (`soap` in `soap:Body`), nil without one.
    package var prefix: String?
    /// The local part (`Body`).
    package var localName: String
    /// The namespace URI, nil when the name is in no namespace.
    package var namespaceURI: String?

    /// Creates a name.
    package init(prefix: String? = nil, localName: String, namespaceURI: String? = nil) {
        self.prefix = prefix
        self.localName = localName
        self.namespaceURI = namespaceURI
    }

    /// The name as written: `prefix:local` or `local`.
    package var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }

    package var description: String { qualifiedName }
}

/// An attribute (namespace declarations are kept apart, in ``XMLElement/namespaces``).
package struct XMLAttribute: Sendable, Hashable {
    /// Its name.
    package var name: XMLName
    /// Its value, entities and character references replaced.
    package var value: String

    /// Creates an attribute.
    package init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

/// A namespace declaration: `xmlns:prefix="uri"` (prefix nil for `xmlns="uri"`).
public struct XMLNamespace: Sendable, Hashable {
    /// The prefix declared, nil for the default namespace.
    package var prefix: String?
    /// The URI.
    package var uri: String

    /// Creates a declaration.
    package init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}

/// An element: name, attributes, namespace declarations and children in document order.
package struct XMLElement: Sendable, Hashable {
    /// Its name.
    package var name: XMLName
    /// Its attributes in document order.
    package var attributes: [XMLAttribute]
    /// The namespaces it declares.
    package var namespaces: [XMLNamespace]
    /// Its children in document order.
    package var children: [XMLNode]

    /// Creates an element.
    package init(
        name: XMLName, attributes: [XMLAttribute] = [], namespaces: [XMLNamespace] = [], children: [XMLNode] = []
    ) {
        self.name = name
        self.attributes = attributes
        self.namespaces = namespaces
        self.children = children
    }

    /// The text of every text and CDATA descendant, in document order (DOM's `textContent`).
    package var textContent: String {
        var text = ""
        for child in children {
            switch child {
            case .text(let value), .cdata(let value): text += value
            case .element(let element): text += element.textContent
            case .comment, .processingInstruction: break
            }
        }
        return text
    }
}

/// One node of a document's tree.
package indirect enum XMLNode: Sendable, Hashable {
    /// An element.
    case element(XMLElement)
    /// Character data.
    case text(String)
    /// A CDATA section.
    case cdata(String)
    /// A comment.
    case comment(String)
    /// A processing instruction `<?target data?>`.
    case processingInstruction(target: String, data: String)
}

/// A parsed document: the root element and the comments and processing instructions around
/// it (a DOCTYPE is read but not kept; nothing it names is loaded).
package struct XMLDocument: Sendable, Hashable {
    /// The document element.
    package var root: XMLElement
    /// Comments and processing instructions before the root, in order.
    package var prolog: [XMLNode]
    /// Comments and processing instructions after the root, in order.
    package var epilog: [XMLNode]

    /// Creates a document.
    package init(root: XMLElement, prolog: [XMLNode] = [], epilog: [XMLNode] = []) {
        self.root = root
        self.prolog = prolog
        self.epilog = epilog
    }
}
