/// A document as the comparison sees it (XMLUnit with `ignoreWhitespace` and comments left
/// out): whitespace-only text gone, other text trimmed, names keyed by the namespace mode,
/// `xmlns` declarations and schema locations apart from the attributes, and placeholders
/// found in the expected document's values.
///
/// A class: the walk passes elements around and sorts them, and a copy is then one retain.
final class ComparedElement: Sendable {
    /// What pairs elements: `{uri}local` when namespace-aware, the written name otherwise.
    let namespaceURI: String?
    let localName: String
    let displayName: String
    /// The element's XPath position among same-named siblings (1-based).
    let position: Int
    let attributes: [ComparedAttribute]
    let schemaLocation: ComparedValue?
    let noNamespaceSchemaLocation: ComparedValue?
    let children: [ComparedNode]
    let textContent: String

    init(
        namespaceURI: String?, localName: String, displayName: String, position: Int,
        attributes: [ComparedAttribute], schemaLocation: ComparedValue?, noNamespaceSchemaLocation: ComparedValue?,
        children: [ComparedNode], textContent: String
    ) {
        self.namespaceURI = namespaceURI
        self.localName = localName
        self.displayName = displayName
        self.position = position
        self.attributes = attributes
        self.schemaLocation = schemaLocation
        self.noNamespaceSchemaLocation = noNamespaceSchemaLocation
        self.children = children
        self.textContent = textContent
    }
}

struct ComparedAttribute: Sendable {
    let namespaceURI: String?
    let localName: String
    let displayName: String
    let value: ComparedValue
}

/// A value, with the placeholder it is when it comes from the expected document.
struct ComparedValue: Sendable {
    let text: String
    let placeholder: XMLPlaceholder?
}

enum ComparedNode: Sendable {
    case element(ComparedElement)
    case text(ComparedValue, cdata: Bool, position: Int)
    case processingInstruction(target: String, data: String, position: Int)

    var localName: String {
        if case .element(let element) = self { return element.localName }
        return ""
    }

    var textContent: String {
        switch self {
        case .element(let element): element.textContent
        case .text(let value, _, _): value.text
        case .processingInstruction(_, let data, _): data
        }
    }

    var kind: String {
        switch self {
        case .element: "element"
        case .text(_, let cdata, _): cdata ? "CDATA section" : "text"
        case .processingInstruction: "processing instruction"
        }
    }
}

/// Builds the compared form of a document.
struct ComparedTreeBuilder {
    let awareness: XMLNamespaceAwareness
    /// Finds placeholders (expected document only).
    let placeholders: XMLPlaceholderReader?
    /// Whether siblings are also sorted by their text (`ignoreOrderOfSameNode`).
    let wantsTextContent: Bool

    /// Text without the characters Java's `trim` removes (code points up to U+0020), worked on
    /// the UTF-8 bytes.
    static func trimmed(_ text: String) -> String {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { $0 > 0x20 }), let last = bytes.lastIndex(where: { $0 > 0x20 })
        else { return "" }
        if first == bytes.startIndex && bytes.index(after: last) == bytes.endIndex { return text }
        return String(text[first...last])
    }

    static let xsi = "http://www.w3.org/2001/XMLSchema-instance"

    func value(_ text: String) throws(XMLPatternError) -> ComparedValue {
        ComparedValue(text: text, placeholder: try placeholders?.placeholder(in: text))
    }

    func element(_ element: XMLElement, position: Int) throws(XMLPatternError) -> ComparedElement {
        var attributes: [ComparedAttribute] = []
        var schemaLocation: ComparedValue?
        var noNamespaceSchemaLocation: ComparedValue?
        if awareness == .none {
            for namespace in element.namespaces {
                let name = namespace.prefix.map { "xmlns:\($0)" } ?? "xmlns"
                attributes.append(
                    ComparedAttribute(
                        namespaceURI: nil, localName: name, displayName: name, value: try value(namespace.uri)))
            }
        }
        for attribute in element.attributes {
            if awareness == .strict && attribute.name.namespaceURI == Self.xsi {
                if attribute.name.localName == "schemaLocation" {
                    schemaLocation = try value(attribute.value)
                    continue
                }
                if attribute.name.localName == "noNamespaceSchemaLocation" {
                    noNamespaceSchemaLocation = try value(attribute.value)
                    continue
                }
            }
            let strict = awareness == .strict
            attributes.append(
                ComparedAttribute(
                    namespaceURI: strict ? attribute.name.namespaceURI : nil,
                    localName: strict ? attribute.name.localName : attribute.name.qualifiedName,
                    displayName: attribute.name.qualifiedName, value: try value(attribute.value)))
        }
        var children: [ComparedNode] = []
        children.reserveCapacity(element.children.count)
        var positions: [XMLName: Int] = [:]
        var texts = 0
        var instructions = 0
        for child in element.children {
            switch child {
            case .element(let inner):
                let position = positions[inner.name, default: 0] + 1
                positions[inner.name] = position
                children.append(.element(try self.element(inner, position: position)))
            case .text(let text), .cdata(let text):
                let trimmed = Self.trimmed(text)
                if trimmed.isEmpty { continue }
                var isCDATA = false
                if case .cdata = child { isCDATA = true }
                texts += 1
                children.append(.text(try value(trimmed), cdata: isCDATA, position: texts))
            case .processingInstruction(let target, let data):
                instructions += 1
                children.append(.processingInstruction(target: target, data: data, position: instructions))
            case .comment: continue
            }
        }
        let strict = awareness == .strict
        return ComparedElement(
            namespaceURI: strict ? element.name.namespaceURI : nil,
            localName: strict ? element.name.localName : element.name.qualifiedName,
            displayName: element.name.qualifiedName, position: position, attributes: attributes,
            schemaLocation: schemaLocation, noNamespaceSchemaLocation: noNamespaceSchemaLocation, children: children,
            textContent: wantsTextContent ? element.textContent : "")
    }
}
