import CXML

/// libxml2's process-wide state, set up once before the first parse or XPath evaluation on
/// any thread: `xmlInitParser` is not safe to race, and the loader that refuses every external
/// resource (DTDs, external entities) is installed at the same time. Every parse and every
/// XPath evaluation after that has its own context, so event loops can use XMLKit at once.
enum LibXML {
    private static let initialized: Bool = {
        cxml_initialize()
        return true
    }()

    /// Makes sure libxml2 is initialised (cheap after the first call).
    static func ensureInitialized() {
        precondition(initialized)
    }

    /// The parse options: no network, no DTD loading, no entity substitution (so no
    /// external entity is read and no entity expands into the tree), no relaxed limits
    /// (`XML_PARSE_HUGE` off keeps libxml2's own depth and amplification limits), errors
    /// recorded rather than printed.
    static let parseOptions = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

    /// Parses bytes into a libxml2 document (the caller frees it with `xmlFreeDoc`).
    static func read(_ bytes: [UInt8], limits: XMLLimits, strictNamespaces: Bool) throws(XMLError) -> xmlDocPtr {
        ensureInitialized()
        guard !bytes.isEmpty else { throw XMLError(line: 0, column: 0, message: "empty document") }
        guard bytes.count <= limits.maxBytes else {
            throw XMLError(
                line: 0, column: 0, message: "document of \(bytes.count) bytes is over the limit of \(limits.maxBytes)")
        }
        var errors = cxml_parse_errors()
        let document = bytes.withUnsafeBytes { raw in
            cxml_read(raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), parseOptions, &errors)
        }
        guard let document else { throw error(errors.error, fallback: "not well-formed XML") }
        if strictNamespaces && errors.namespace_error.set != 0 {
            xmlFreeDoc(document)
            throw error(errors.namespace_error, fallback: "a namespace prefix is not bound to a URI")
        }
        return document
    }

    /// The recorded error as an ``XMLError``.
    static func error(_ first: cxml_first_error, fallback: String) -> XMLError {
        guard first.set != 0 else { return XMLError(line: 0, column: 0, message: fallback) }
        var record = first
        let message = withUnsafeBytes(of: &record.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return XMLError(
            line: Int(first.line), column: Int(first.column),
            message: message.trimmingCharacters(in: { $0 == "\n" || $0 == " " }))
    }
}

extension StringProtocol {
    /// The string without leading and trailing characters of the kind.
    func trimmingCharacters(in kind: (Character) -> Bool) -> String {
        var slice = self[...]
        while let first = slice.first, kind(first) { slice = slice.dropFirst() }
        while let last = slice.last, kind(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension String {
    /// The text of a libxml2 string (nil stays nil).
    init?(xml: UnsafePointer<xmlChar>?) {
        guard let xml else { return nil }
        self = String(cString: xml)
    }
}
