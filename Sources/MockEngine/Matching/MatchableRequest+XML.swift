import XMLKit

extension MatchableRequest {
    /// The body as an XML document, read once per namespace mode.
    func bodyXML(strict: Bool) -> Result<XMLDocument, XMLError> {
        if let known = bodyXMLDocuments[strict] { return known }
        let read = Result { () throws(XMLError) in try XMLDocument(parsing: body, strictNamespaces: strict) }
        bodyXMLDocuments[strict] = read
        return read
    }

    /// The body read for XPath, once per way of reading names.
    func bodyXPath(localNames: Bool) -> Result<XPathDocument, XMLError> {
        if let known = bodyXPathDocuments[localNames] { return known }
        let read = Result { () throws(XMLError) in
            try XPathDocument(parsing: body, localNames: localNames)
        }
        bodyXPathDocuments[localNames] = read
        return read
    }
}
