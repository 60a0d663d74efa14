import Foundation
import JSONKit
import XMLKit

/// A case's expected curl output, compared with an answer as Prism's harness compares
/// (`test-harness/index.ts` and `helpers.ts`, through Gavel): the status code; each expected
/// header field present, the value too for `Content-Type` and the `Accept*` fields (Gavel's
/// strict fields; never `Date` or `Expires`); the body by kind: for JSON, Gavel's JSON example
/// (every expected key present, arrays item by item, the top-level type the same), otherwise
/// the same text; then, for `====expect====`, the same text, and for `====expect-keysOnly====`
/// the same keys in the same order. An XML answer's body is compared by structure alone
/// (element names and nesting, not values).
struct PrismExpectation: Sendable {
    enum Kind: Sendable { case exact, loose, keysOnly }

    let kind: Kind
    let status: Int
    /// The expected fields, names lowercased, as written.
    let headers: [(name: String, value: String)]
    /// The body: the text after the blank line, lines joined with `\n`.
    let body: String

    struct ParseError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Reads curl's `-i` output (`HTTP/1.1 200 OK`, fields, a blank line, the body), trimmed
    /// as the harness trims it.
    init(output: String, kind: Kind) throws(ParseError) {
        self.kind = kind
        let parsed = Self.parse(output)
        guard let status = parsed.status else {
            throw ParseError(message: "expected a status line, found '\(parsed.statusLine)'")
        }
        self.status = status
        headers = parsed.headers
        body = parsed.body
    }

    /// curl's output split as `http-string-parser` splits it: the status line, the fields up
    /// to the first empty line, the rest.
    static func parse(_ output: String) -> (statusLine: String, status: Int?, headers: [(String, String)], body: String)
    {
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }[...]
        let statusLine = lines.popFirst() ?? ""
        let parts = statusLine.split(separator: " ")
        let status = parts.count >= 2 && parts[0].hasPrefix("HTTP/") ? Int(parts[1]) : nil
        var headers: [(String, String)] = []
        while let line = lines.popFirst(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (statusLine, status, headers, lines.joined(separator: "\n"))
    }

    /// The fields whose values Gavel compares (the others only present).
    static let strictFields: Set<String> = [
        "content-type", "accept", "accept-charset", "accept-encoding", "accept-language",
    ]

    /// The differences between this expectation and an answer, as sentences; none when they
    /// agree.
    func mismatches(
        status actualStatus: Int, headers actual: [(name: String, value: String)], body actualBody: String
    )
        -> [String]
    {
        var problems: [String] = []
        if actualStatus != status { problems.append("status: expected \(status), found \(actualStatus)") }
        let fields = Dictionary(
            actual.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        for (name, value) in headers {
            guard let found = fields[name] else {
                problems.append("header '\(name)': expected '\(value)', found none")
                continue
            }
            if Self.strictFields.contains(name) && found != value {
                problems.append("header '\(name)': expected '\(value)', found '\(found)'")
            }
        }
        let contentType = fields["content-type"] ?? ""
        if Self.isXMLType(contentType) || Self.isXML(body) {
            if let difference = Self.xmlDifference(expected: body, actual: actualBody) {
                problems.append("body (XML): \(difference)")
            }
            return problems
        }
        if let difference = Self.gavelBodyDifference(expected: body, actual: actualBody) {
            problems.append("body: \(difference)")
        }
        switch kind {
        case .exact where actualBody != body:
            problems.append("body: expected '\(body)', found '\(actualBody)'")
        case .keysOnly:
            let keys = { (text: String) in (try? JSONValue(parsing: text))?.objectValue?.keys }
            if keys(body) == nil || keys(body) != keys(actualBody) {
                problems.append("body keys: expected \(keys(body) ?? []), found \(keys(actualBody) ?? [])")
            }
        default: break
        }
        return problems
    }

    /// Gavel's body check: JSON against JSON as a JSON example, text against text exactly, one
    /// against the other a failure.
    static func gavelBodyDifference(expected: String, actual: String) -> String? {
        let expectedJSON = try? JSONValue(parsing: Array(expected.utf8))
        let actualJSON = try? JSONValue(parsing: Array(actual.utf8))
        switch (expectedJSON, actualJSON) {
        case (let expectedValue?, let actualValue?):
            return exampleDifference(expectedValue, actualValue, at: "$", topLevel: true)
        case (nil, nil):
            return expected == actual ? nil : "expected '\(expected)', found '\(actual)'"
        case (.some, nil):
            return "expected JSON '\(expected)', found '\(actual)'"
        case (nil, .some):
            return "expected text '\(expected)', found JSON '\(actual)'"
        }
    }

    /// Gavel's JSON example: objects need every expected key (others allowed), arrays are
    /// checked item by item as far as both go, scalars below the top level are not compared;
    /// at the top level the type must agree (`integer` for a whole number).
    static func exampleDifference(
        _ expected: JSONValue, _ actual: JSONValue, at path: String, topLevel: Bool
    )
        -> String?
    {
        switch expected {
        case .object(let members):
            guard case .object(let found) = actual else { return "\(path): expected an object, found \(actual)" }
            for member in members {
                guard let inner = found[member.key] else { return "\(path): expected key '\(member.key)', found none" }
                if let difference = exampleDifference(member.value, inner, at: "\(path).\(member.key)", topLevel: false)
                {
                    return difference
                }
            }
            return nil
        case .array(let items):
            guard case .array(let found) = actual else { return "\(path): expected an array, found \(actual)" }
            for (index, item) in items.enumerated() where index < found.count {
                if let difference = exampleDifference(item, found[index], at: "\(path)[\(index)]", topLevel: false) {
                    return difference
                }
            }
            return nil
        default:
            guard topLevel else { return nil }
            let (want, got) = (expected.kind, actual.kind)
            return want == got || want == .number && got == .integer ? nil : "\(path): expected \(want), found \(got)"
        }
    }

    /// `application/xml`, `text/xml` or `application/*+xml`.
    static func isXMLType(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return type == "application/xml" || type == "text/xml"
            || type.hasPrefix("application/") && type.hasSuffix("+xml")
    }

    /// Whether the text is an XML document.
    static func isXML(_ text: String) -> Bool {
        text.hasPrefix("<") && (try? XMLDocument(parsing: text)) != nil
    }

    /// The first difference of structure between two XML documents: element names, nesting
    /// and attribute names, not text nor the children's order.
    static func xmlDifference(expected: String, actual: String) -> String? {
        guard let expectedDocument = try? XMLDocument(parsing: expected) else { return "expected is not XML" }
        guard let actualDocument = try? XMLDocument(parsing: actual) else { return "found no XML: '\(actual)'" }
        func shape(_ element: XMLElement) -> String {
            let attributes = element.attributes.map(\.name.qualifiedName).sorted().joined(separator: ",")
            let children = element.children.compactMap { node -> String? in
                if case .element(let child) = node { return shape(child) }
                return nil
            }
            // Compared as objects of members, as diff-js-xml does: the children's order aside.
            return "\(element.name.qualifiedName)[\(attributes)](\(children.sorted().joined(separator: " ")))"
        }
        let (want, got) = (shape(expectedDocument.root), shape(actualDocument.root))
        return want == got ? nil : "expected \(want), found \(got)"
    }
}
