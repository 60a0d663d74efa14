/// Writes an element tree (``XMLElement``, the tree the parser gives) as XML 1.0 text: names
/// checked against XML's `Name` production (a prefix and a local part each without a colon),
/// text and attribute values escaped (`&`, `<`, `>`, and in attributes `"` and the whitespace
/// characters that attribute normalisation would turn into spaces), characters XML 1.0 cannot
/// hold refused, so what it writes is always well-formed. Comments and processing
/// instructions are written only when their content cannot end them early.
package enum XMLWriter {
    /// The document: an XML declaration, then `root`.
    package static func document(_ root: XMLElement) throws(XMLError) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"#
        try write(root, into: &text, depth: 0)
        return text
    }

    /// How deeply elements may nest (as the parser's default ``XMLLimits/maxDepth``).
    package static let maximumDepth = 256

    /// `element` appended to `text`.
    package static func write(_ element: XMLElement, into text: inout String, depth: Int) throws(XMLError) {
        guard depth < maximumDepth else { throw failure("elements nested more than \(maximumDepth) deep") }
        let name = try checked(element.name)
        text += "<" + name
        for namespace in element.namespaces {
            if let prefix = namespace.prefix, !isNCName(prefix) { throw failure("'\(prefix)' is not an XML prefix") }
            text += namespace.prefix.map { " xmlns:\($0)=\"" } ?? " xmlns=\""
            try appendEscaped(namespace.uri, attribute: true, into: &text)
            text += "\""
        }
        for attribute in element.attributes {
            text += " " + (try checked(attribute.name)) + "=\""
            try appendEscaped(attribute.value, attribute: true, into: &text)
            text += "\""
        }
        guard !element.children.isEmpty else {
            text += "/>"
            return
        }
        text += ">"
        for child in element.children {
            switch child {
            case .element(let inner): try write(inner, into: &text, depth: depth + 1)
            case .text(let value): try appendEscaped(value, attribute: false, into: &text)
            case .cdata(let value):
                guard !value.contains("]]>") else { throw failure("a CDATA section cannot hold ']]>'") }
                try checkCharacters(value)
                text += "<![CDATA[" + value + "]]>"
            case .comment(let value):
                guard !value.contains("--"), !value.hasSuffix("-") else {
                    throw failure("a comment cannot hold '--' or end with '-'")
                }
                try checkCharacters(value)
                text += "<!--" + value + "-->"
            case .processingInstruction(let target, let data):
                guard isNCName(target), target.lowercased() != "xml", !data.contains("?>") else {
                    throw failure("'\(target)' with its data is not a processing instruction XML can hold")
                }
                try checkCharacters(data)
                text += "<?" + target + (data.isEmpty ? "" : " " + data) + "?>"
            }
        }
        text += "</" + name + ">"
    }

    /// Whether `name` is an XML name without a colon (an NCName): a letter or `_` first, then
    /// letters, digits, `.`, `-`, `_` and the other characters XML 1.0 (fifth edition) allows.
    package static func isNCName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isNameStart(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { isNameStart($0) || isNameCharacter($0) }
    }

    /// Whether XML 1.0 can hold `scalar` at all (`Char`): tab, line feed, carriage return and
    /// the rest from U+0020, but for U+FFFE and U+FFFF.
    package static func isCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: true
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D: true
        case 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD: true
        case 0x10000...0xEFFFF: true
        default: false
        }
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x2D, 0x2E, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: false
        }
    }

    private static func checked(_ name: XMLName) throws(XMLError) -> String {
        if let prefix = name.prefix, !isNCName(prefix) { throw failure("'\(prefix)' is not an XML prefix") }
        guard isNCName(name.localName) else { throw failure("'\(name.localName)' is not an XML name") }
        return name.qualifiedName
    }

    private static func checkCharacters(_ value: String) throws(XMLError) {
        if let bad = value.unicodeScalars.first(where: { !isCharacter($0) }) {
            throw failure("U+\(String(bad.value, radix: 16, uppercase: true)) is not a character XML 1.0 can hold")
        }
    }

    private static func appendEscaped(_ value: String, attribute: Bool, into text: inout String) throws(XMLError) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "\"" where attribute: text += "&quot;"
            // In an attribute, a literal tab or line break would be read back as a space.
            case "\t" where attribute: text += "&#9;"
            case "\n" where attribute: text += "&#10;"
            // A literal carriage return is read back as a line feed, in text too.
            case "\r": text += "&#13;"
            default:
                guard isCharacter(scalar) else {
                    throw failure(
                        "U+\(String(scalar.value, radix: 16, uppercase: true)) is not a character XML 1.0 can hold")
                }
                text.unicodeScalars.append(scalar)
            }
        }
    }

    private static func failure(_ message: String) -> XMLError {
        XMLError(line: 0, column: 0, message: message)
    }
}
