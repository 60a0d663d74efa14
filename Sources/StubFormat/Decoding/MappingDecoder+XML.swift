import JSONKit
import XMLKit

extension MappingDecoder {
    /// The options of `equalToXml` and `matchesXPath` that sit beside the operator.
    package static let xmlOptions = [
        "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex", "exemptedComparisons",
        "ignoreOrderOfSameNode", "namespaceAwareness", "xPathNamespaces",
    ]
    private static let equalToXmlOptions = Set(xmlOptions.filter { $0 != "xPathNamespaces" })

    /// Whether the XML options present belong to the operator; one that does not is an error
    /// (it would otherwise be ignored).
    package mutating func xmlOptionsFit(_ object: JSONObject, operator name: String, at path: JSONPath) -> Bool {
        var fits = true
        for member in object.members where Self.xmlOptions.contains(member.key) {
            let owner = member.key == "xPathNamespaces" ? "matchesXPath" : "equalToXml"
            if owner != name {
                invalid(
                    path.appending(key: member.key), expected: "'\(member.key)' only beside '\(owner)'",
                    found: "beside '\(name)'", kind: .unknownField)
                fits = false
            }
        }
        return fits
    }

    /// `{"equalToXml": "<a/>", "enablePlaceholders": true, "exemptedComparisons": [...], ...}`.
    package mutating func xmlMatcher(_ object: JSONObject, at path: JSONPath) -> StringMatcher? {
        guard let expected = string(object["equalToXml"] ?? .null, at: path.appending(key: "equalToXml")) else {
            return nil
        }
        var match = XMLMatch(expected)
        var valid = true
        match.enablePlaceholders = object["enablePlaceholders"]?.boolValue
        for key in ["placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex"] {
            guard let value = object[key] else { continue }
            guard let text = string(value, at: path.appending(key: key)) else {
                valid = false
                continue
            }
            if key.contains("Opening") {
                match.placeholderOpeningDelimiterRegex = text
            } else {
                match.placeholderClosingDelimiterRegex = text
            }
            if match.enablePlaceholders != true {
                problems.append(
                    StubProblem(
                        .warning, .unknownField, file: file, path: path.appending(key: key).description,
                        detail: "'\(key)' has no effect without \"enablePlaceholders\": true"))
            }
        }
        if let value = object["exemptedComparisons"] {
            match.exemptedComparisons = comparisonTypes(value, at: path.appending(key: "exemptedComparisons"))
            valid = valid && match.exemptedComparisons != nil
        }
        if let value = object["ignoreOrderOfSameNode"] {
            match.ignoreOrderOfSameNode = bool(value, at: path.appending(key: "ignoreOrderOfSameNode"))
            valid = valid && match.ignoreOrderOfSameNode != nil
        }
        if let value = object["namespaceAwareness"] {
            let here = path.appending(key: "namespaceAwareness")
            if let text = string(value, at: here) {
                match.namespaceAwareness = XMLNamespaceAwareness(rawValue: text)
                if match.namespaceAwareness == nil {
                    invalid(
                        here, expected: "STRICT or NONE (petmock does not implement WireMock's LEGACY)",
                        found: "'\(text)'")
                }
            }
            valid = valid && match.namespaceAwareness != nil
        }
        return valid ? .equalToXml(match) : nil
    }

    private mutating func comparisonTypes(_ value: JSONValue, at path: JSONPath) -> [XMLComparisonType]? {
        guard case .array(let elements) = value else {
            wrongType(path, expected: "an array of XMLUnit comparison type names", value)
            return nil
        }
        var types: [XMLComparisonType] = []
        for (index, element) in elements.enumerated() {
            let here = path.appending(index: index)
            guard let name = string(element, at: here) else { return nil }
            guard let type = XMLComparisonType(rawValue: name) else {
                invalid(
                    here,
                    expected: "an XMLUnit comparison type ("
                        + XMLComparisonType.allCases.map(\.rawValue).joined(separator: ", ") + ")",
                    found: "'\(name)'")
                return nil
            }
            types.append(type)
        }
        return types
    }

    /// `{"matchesXPath": "//a", "xPathNamespaces": {...}}` or
    /// `{"matchesXPath": {"expression": "//a", "equalTo": "x"}, "xPathNamespaces": {...}}`.
    package mutating func xpathMatcher(_ object: JSONObject, at path: JSONPath) -> StringMatcher? {
        let here = path.appending(key: "matchesXPath")
        var namespaces: [XMLNamespace] = []
        if let value = object["xPathNamespaces"] {
            guard let declared = xpathNamespaces(value, at: path.appending(key: "xPathNamespaces")) else { return nil }
            namespaces = declared
        }
        let value = object["matchesXPath"] ?? .null
        if case .string(let expression) = value { return .matchesXPath(XPathMatch(expression, namespaces: namespaces)) }
        guard let inner = self.object(value, at: here) else { return nil }
        guard let expressionValue = inner["expression"] else {
            missing(here.appending(key: "expression"), "expression")
            return nil
        }
        guard let expression = string(expressionValue, at: here.appending(key: "expression")) else { return nil }
        if let value = inner["xPathNamespaces"] {
            guard let declared = xpathNamespaces(value, at: here.appending(key: "xPathNamespaces")) else { return nil }
            namespaces += declared
        }
        let rest = JSONObject(inner.members.filter { $0.key != "expression" && $0.key != "xPathNamespaces" })
        if rest.members.isEmpty { return .matchesXPath(XPathMatch(expression, namespaces: namespaces)) }
        guard let sub = matcher(.object(rest), at: here) else { return nil }
        return .matchesXPath(XPathMatch(expression, namespaces: namespaces, sub: sub))
    }

    private mutating func xpathNamespaces(_ value: JSONValue, at path: JSONPath) -> [XMLNamespace]? {
        guard let object = object(value, at: path) else { return nil }
        var namespaces: [XMLNamespace] = []
        for member in object.members {
            let here = path.appending(key: member.key)
            guard let uri = string(member.value, at: here) else { return nil }
            guard !member.key.isEmpty, !member.key.contains(":") else {
                invalid(here, expected: "a namespace prefix (a name without ':')", found: "'\(member.key)'")
                return nil
            }
            namespaces.append(XMLNamespace(prefix: member.key, uri: uri))
        }
        return namespaces
    }
}
