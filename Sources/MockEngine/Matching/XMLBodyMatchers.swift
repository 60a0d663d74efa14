import Platform
import StubFormat
import XMLKit

/// `equalToXml` made ready to run: the expected document parsed and its placeholders found.
struct CompiledXMLEquality: Sendable {
    let equality: XMLEquality
    let awareness: XMLNamespaceAwareness

    /// Parses the expected document; problems name `path.equalToXml` (or the delimiter field).
    static func compile(_ match: XMLMatch, at path: String, problems: inout [PatternProblem]) -> CompiledXMLEquality? {
        let options = match.options
        let document: XMLDocument
        do {
            document = try XMLDocument(
                parsing: match.expected, strictNamespaces: options.namespaceAwareness == .strict)
        } catch {
            problems.append(
                PatternProblem(
                    path: path + ".equalToXml", kind: "XML document",
                    error: PatternError(
                        pattern: StringMatcher.excerpt(match.expected), reason: error.description)))
            return nil
        }
        do {
            return CompiledXMLEquality(
                equality: try XMLEquality(expected: document, options: options), awareness: options.namespaceAwareness)
        } catch {
            let pattern =
                switch error.field {
                case "placeholderOpeningDelimiterRegex": match.placeholderOpeningDelimiterRegex ?? ""
                case "placeholderClosingDelimiterRegex": match.placeholderClosingDelimiterRegex ?? ""
                default: StringMatcher.excerpt(match.expected)
                }
            let kind = error.field == "equalToXml" ? "XML placeholder" : "regular expression"
            problems.append(
                PatternProblem(
                    path: path + "." + error.field, kind: kind,
                    error: PatternError(pattern: pattern, reason: error.message)))
            return nil
        }
    }

    /// The actual document, or why it is not one.
    func read(_ bytes: [UInt8]) -> Result<XMLDocument, XMLError> {
        Result { () throws(XMLError) in try XMLDocument(parsing: bytes, strictNamespaces: awareness == .strict) }
    }

    func matches(_ bytes: [UInt8]) -> Bool {
        guard case .success(let document) = read(bytes) else { return false }
        return equality.firstDifference(document) == nil
    }
}

/// `matchesXPath` made ready to run: the expression checked, the sub-matcher compiled.
struct CompiledXPath: Sendable {
    let xpath: XPathExpression
    let sub: CompiledMatcher?

    static func compile(
        _ match: XPathMatch, at path: String, problems: inout [PatternProblem], clock: TimeSource
    ) -> CompiledXPath? {
        let xpath: XPathExpression
        do {
            xpath = try XPathExpression(match.expression, namespaces: match.namespaces)
        } catch {
            problems.append(
                PatternProblem(
                    path: path + ".matchesXPath", kind: "XPath 1.0 expression",
                    error: PatternError(pattern: match.expression, reason: error.description)))
            return nil
        }
        guard let sub = match.sub else { return CompiledXPath(xpath: xpath, sub: nil) }
        guard let compiled = CompiledMatcher.compile(sub, at: path + ".matchesXPath", problems: &problems, clock: clock)
        else {
            return nil
        }
        return CompiledXPath(xpath: xpath, sub: compiled)
    }

    func evaluate(_ bytes: [UInt8]) -> Result<XPathResult, XMLError> {
        Result { () throws(XMLError) in try xpath.evaluate(bytes, serializingNodes: sub != nil) }
    }

    /// Evaluates on the request's body, read once per request for every XPath matcher.
    func evaluate(_ request: MatchableRequest) -> Result<XPathResult, XMLError> {
        request.bodyXPath(localNames: xpath.usesLocalNames).flatMap { document in
            Result { () throws(XMLError) in try xpath.evaluate(on: document, serializingNodes: sub != nil) }
        }
    }

    func matches(_ bytes: [UInt8]) -> Bool {
        matches(evaluate(bytes))
    }

    /// Without a sub-matcher: the result is a non-empty node set, true, a number other than 0,
    /// or a non-empty string. With one: some selected value satisfies it (`absent`: nothing
    /// is selected; `hasExactly`/`includes`: the selected values together).
    func matches(_ evaluation: Result<XPathResult, XMLError>) -> Bool {
        guard case .success(let result) = evaluation else { return false }
        guard let sub else { return result.isTruthy }
        if case .absent = sub { return result.values.isEmpty }
        // `hasExactly` and `includes` look at every selected value together.
        if sub.isMultiValued { return sub.matches(values: result.values) }
        return result.values.contains { sub.matches($0) }
    }

    func explain(_ evaluation: Result<XPathResult, XMLError>) -> String? {
        switch evaluation {
        case .failure(let error): return "XPath not evaluated: \(error)"
        case .success(let result):
            let values = result.values
            if values.isEmpty || (sub == nil && !result.isTruthy) {
                return "'\(xpath.expression)' selected nothing"
            }
            let shown = values.prefix(3).map { "'\(StringMatcher.excerpt($0))'" }.joined(separator: ", ")
            return "'\(xpath.expression)' selected \(shown)" + (values.count > 3 ? " and \(values.count - 3) more" : "")
        }
    }
}

extension CompiledMatcher {
    /// For a top-level `equalToXml` or `matchesXPath`, whether the request's body matches,
    /// reading the body once per request for every such matcher; nil for other matchers.
    func matchesXMLBody(of request: MatchableRequest) -> Bool? {
        switch self {
        case .equalToXml(let xml):
            guard case .success(let document) = request.bodyXML(strict: xml.awareness == .strict) else {
                return false
            }
            return xml.equality.firstDifference(document) == nil
        case .matchesXPath(let xpath): return xpath.matches(xpath.evaluate(request))
        default: return nil
        }
    }

    /// For XML matchers on a body that does not match: WireMock's distance (the share of
    /// counted comparisons that differ; 1 for an XPath) and why, beyond the body itself: the
    /// first XML difference, or what an XPath selected. Nil for other matchers.
    func xmlMismatch(_ request: MatchableRequest) -> (distance: Double, explanation: String?)? {
        switch self {
        case .equalToXml(let xml):
            switch request.bodyXML(strict: xml.awareness == .strict) {
            case .failure(let error): return (1, "not XML: \(error)")
            case .success(let document):
                let difference = xml.equality.firstDifference(document)
                return (max(0.1, xml.equality.distance(document)), difference.map { "first difference: \($0)" })
            }
        case .matchesXPath(let xpath): return (1, xpath.explain(xpath.evaluate(request)))
        default: return nil
        }
    }
}
