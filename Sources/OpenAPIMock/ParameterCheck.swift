import APISchema
import HTTPCore
import JSONKit
import MockEngine

/// One documented parameter, compiled once: where it is read, how its text splits into values
/// (`style`, `explode`: OpenAPI's style table, for arrays and objects), which JSON kinds its
/// text is read as, and its schema's validator.
final class ParameterCheck: Sendable {
    /// How an array's text is split.
    enum Splitting: Sendable {
        /// One value per occurrence (`form` exploded: `?id=1&id=2`).
        case occurrences
        /// One occurrence split on a separator (`,`, ` `, `|`, a tab, or `.` for `label`).
        case separator(Character)
    }

    /// How an object's members are sent.
    enum ObjectForm: Sendable {
        /// Each member a query pair of its own name: `form` exploded, `?R=100&G=200`.
        case members
        /// `name[member]=value` query pairs: `deepObject`, `?color[R]=100&color[G]=200`.
        case deep
        /// One occurrence, names and values alternating on a separator: `R,100,G,200`
        /// (`form`, `simple`, `spaceDelimited`, `pipeDelimited`, `label` not exploded).
        case alternating(Character)
        /// One occurrence, `name=value` items on a separator: `R=100,G=200` (`simple` and
        /// `label` exploded, `matrix` exploded on `;`).
        case assigned(Character)
    }

    /// The deepest `deepObject` member read (`filter[a][b]` is 2 deep).
    static let maximumNesting = 8

    let name: String
    let location: ContractParameter.Location
    let required: Bool
    /// The schema's kinds, null left out (empty: any); the text is read as the first that fits.
    let kinds: [JSONKind]
    /// The kinds of an array's items.
    let itemKinds: [JSONKind]
    let splitting: Splitting
    /// How an object-typed value is sent; nil for any other schema.
    let objectForm: ObjectForm?
    /// The object's members, for reading each member's text as its property says.
    let members: ParameterMembers?
    /// Whether the value is checked at all (not for a `deepObject` outside a query, nor an
    /// object in a style OpenAPI does not define for it).
    let checksValue: Bool
    /// Whether the text starts with `.` (`label`).
    let labelled: Bool
    /// Whether the text is `matrix`'s: `;name=value`, `;name=3;name=4` for an exploded array,
    /// `;R=100;G=200` for an exploded object.
    let matrix: Bool
    /// `explode`, or its style's default.
    let explode: Bool
    let validator: JSONSchemaValidator
    /// The quick pass for a plain schema, before the validator's walk.
    let plain: PlainValueCheck?

    init(_ parameter: ContractParameter, in contract: Contract) {
        name = parameter.name
        location = parameter.location
        required = parameter.required || parameter.location == .path
        let schema = contract.resolve(parameter.schema) ?? parameter.schema
        kinds = schema.nonNullTypes
        itemKinds = schema.items.flatMap { contract.resolve($0)?.nonNullTypes } ?? []
        let style = parameter.effectiveStyle
        let explode = parameter.effectiveExplode
        self.explode = explode
        let inQuery = location == .query
        switch style {
        case "form": splitting = explode && inQuery ? .occurrences : .separator(",")
        case "spaceDelimited": splitting = explode && inQuery ? .occurrences : .separator(" ")
        case "pipeDelimited": splitting = explode && inQuery ? .occurrences : .separator("|")
        case ContractParameter.tabDelimited: splitting = explode && inQuery ? .occurrences : .separator("\t")
        case "label": splitting = .separator(explode ? "." : ",")
        default: splitting = .separator(",")
        }
        labelled = style == "label"
        matrix = style == "matrix"
        let isObject = kinds.contains(.object) && !kinds.contains(.array)
        if isObject {
            switch style {
            case "deepObject" where inQuery: objectForm = .deep
            case "form", "spaceDelimited", "pipeDelimited", ContractParameter.tabDelimited:
                let separator: Character =
                    switch style {
                    case "form": ","
                    case "spaceDelimited": " "
                    case "pipeDelimited": "|"
                    default: "\t"
                    }
                objectForm = explode ? (inQuery ? .members : .assigned(separator)) : .alternating(separator)
            case "simple": objectForm = explode ? .assigned(",") : .alternating(",")
            case "label": objectForm = explode ? .assigned(".") : .alternating(",")
            case "matrix": objectForm = explode ? .assigned(";") : .alternating(",")
            default: objectForm = nil
            }
            members = ParameterMembers(parameter.schema, in: contract)
        } else {
            objectForm = nil
            members = nil
        }
        checksValue = style != "deepObject" && !isObject || objectForm != nil
        validator = JSONSchemaValidator(schema: parameter.schema, in: contract)
        plain = PlainValueCheck(schema)
    }

    /// Where violations of this parameter are reported: `query.limit`.
    var locationName: String { "\(location.rawValue).\(name)" }

    /// Whether the parameter reads the whole query (an exploded or `deepObject` object)
    /// rather than the occurrences of its name.
    var readsQueryPairs: Bool {
        switch objectForm {
        case .members?, .deep?: true
        default: false
        }
    }

    /// The separator between the values of one occurrence, which may stand unencoded whatever
    /// `allowReserved` says; nil when each occurrence is one value.
    var separator: Character? {
        switch objectForm {
        case .alternating(let separator)?, .assigned(let separator)?: return separator
        case .members?, .deep?: return nil
        case nil:
            guard kinds.contains(.array), case .separator(let separator) = splitting else { return nil }
            return separator
        }
    }

    /// The member path of a query pair's name for this parameter, or nil when the pair is not
    /// one of its members: `["R"]` for `R` (exploded), `["R"]` for `color[R]`, `["a", "b"]` for
    /// `color[a][b]` (`deepObject`). `others` are the operation's other query parameters,
    /// which an exploded object that lists no properties (a map) leaves to them.
    func memberPath(_ pairName: String, others: Set<String>) -> [String]? {
        switch objectForm {
        case .members?:
            guard let members, members.properties[pairName] != nil || members.properties.isEmpty else { return nil }
            // A map takes the pairs no other parameter documents, but Prism's `__code`,
            // `__example` and `__dynamic`, which are not the API's.
            if members.properties.isEmpty
                && (members.additional == nil || others.contains(pairName) || pairName.hasPrefix("__"))
            {
                return nil
            }
            return [pairName]
        case .deep?:
            guard pairName.hasPrefix(name), pairName.utf8.count > name.utf8.count + 2, pairName.hasSuffix("]") else {
                return nil
            }
            let rest = pairName.dropFirst(name.count)
            guard rest.first == "[" else { return nil }
            return rest.dropFirst().dropLast().split(separator: "][", omittingEmptySubsequences: false).map(String.init)
        default: return nil
        }
    }

    /// The parameter's violations given the request's query pairs (an exploded or `deepObject`
    /// object reads them all); `others` are the operation's other query parameter names.
    func violations(query: [(name: String, value: String)], others: Set<String>, limit: Int) -> [RequestViolation] {
        var pairs: [(path: [String], text: String)] = []
        var bare: String?
        for pair in query {
            if let path = memberPath(pair.name, others: others) {
                // Nesting is bounded, so that no name makes a value the validator walks deep.
                guard path.count <= Self.maximumNesting else {
                    return [
                        RequestViolation(
                            location: locationName, expected: "members nested at most \(Self.maximumNesting) deep",
                            found: ViolationText.quoted(pair.name),
                            message: "the query parameter '\(name)' has a member nested too deep")
                    ]
                }
                pairs.append((path, pair.value))
            } else if pair.name == name, bare == nil {
                bare = pair.value
            }
        }
        if case .deep? = objectForm, let bare {
            return [
                RequestViolation(
                    location: locationName, expected: "members sent as '\(name)[member]=value' (deepObject)",
                    found: ViolationText.quoted("\(name)=\(bare)"),
                    message: "the query parameter '\(name)' is a deepObject: each member is sent as \(name)[member]")
            ]
        }
        guard !pairs.isEmpty, let members else { return missing() }
        return violations(of: members.object(pairs), limit: limit)
    }

    /// The parameter's violations given its occurrences in the request (in order; empty when
    /// absent): decoded text, or with `percentEncoded` (a path segment) the text as sent, split
    /// on its style's separators first and each piece decoded after (as RFC 6570 expands and
    /// Prism reads it), so that an escaped separator (`a%2Cb`, `;id=1%3B2`) stays in its value.
    func violations(_ occurrences: [String], percentEncoded: Bool = false, limit: Int) -> [RequestViolation] {
        guard var first = occurrences.first else { return missing() }
        guard checksValue else { return [] }
        var decode = percentEncoded
        if decode, let separator, !Self.standsInPath(separator) {
            // A separator a path cannot carry as itself (a space, a tab, `|`: Swagger's `ssv`,
            // `tsv`, `pipes`) is sent escaped: there the escape is the separator, and the
            // text is decoded whole before it is split.
            first = Self.piece(first, decoding: true)
            decode = false
        }
        if labelled, first.hasPrefix(".") { first.removeFirst() }
        var matrixItems: [String]?
        if matrix {
            let (texts, violation) = matrixText(first, decoding: decode)
            if let violation { return [violation] }
            if kinds.contains(.array) && explode {
                matrixItems = texts.map { Self.piece($0, decoding: decode) }
            } else {
                first = texts.first ?? ""
            }
        }
        if let objectForm, let members {
            switch objectForm {
            case .alternating(let separator):
                let parts = first.isEmpty ? [] : first.split(separator: separator, omittingEmptySubsequences: false)
                guard parts.count % 2 == 0 else {
                    return [malformed(first, expected: "names and values alternating on '\(separator)'")]
                }
                let pairs = stride(from: 0, to: parts.count, by: 2).map { index in
                    (
                        path: [Self.piece(parts[index], decoding: decode).trimmed(location)],
                        text: Self.piece(parts[index + 1], decoding: decode).trimmed(location)
                    )
                }
                return violations(of: members.object(pairs), limit: limit)
            case .assigned(let separator):
                var pairs: [(path: [String], text: String)] = []
                for item in first.isEmpty ? [] : first.split(separator: separator, omittingEmptySubsequences: false) {
                    guard let equals = item.firstIndex(of: "=") else {
                        return [malformed(first, expected: "name=value items separated by '\(separator)'")]
                    }
                    pairs.append(
                        (
                            [Self.piece(item[..<equals], decoding: decode).trimmed(location)],
                            Self.piece(item[item.index(after: equals)...], decoding: decode)
                        ))
                }
                return violations(of: members.object(pairs), limit: limit)
            case .members, .deep:
                return []
            }
        }
        let value: JSONValue
        if kinds.contains(.array) {
            let texts: [String]
            switch splitting {
            case _ where matrixItems != nil: texts = matrixItems ?? []
            case .occurrences: texts = occurrences.map { Self.piece($0, decoding: decode) }
            case .separator(let separator):
                let parts = first.isEmpty ? [] : first.split(separator: separator, omittingEmptySubsequences: false)
                texts = parts.map { Self.piece($0, decoding: decode).trimmed(location) }
            }
            value = .array(texts.map { Self.read($0, as: itemKinds) })
        } else {
            value = Self.read(Self.piece(first, decoding: decode), as: kinds)
        }
        if let plain, plain.passes(value) { return [] }
        return violations(of: value, limit: limit)
    }

    /// Whether a separator is one a path segment carries as itself (RFC 3986 §3.3 `pchar`),
    /// which a client escapes to put one inside a value. (A switch: hashing a `Character` for
    /// a set costs more than the request's whole value check.)
    static func standsInPath(_ separator: Character) -> Bool {
        switch separator {
        case ",", ";", ".", "=": true
        default: false
        }
    }

    /// One piece of an occurrence's text: percent-decoded when `decoding` (text that does not
    /// decode, a `%` not followed by two hexadecimal digits, is kept as sent, as a path match
    /// keeps it), else as it is.
    private static func piece<Text: StringProtocol>(_ text: Text, decoding: Bool) -> String {
        guard decoding, text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return text.removingPercentEncoding() ?? String(text)
    }

    /// A `matrix` value's text without its `;name=`: the one value (`;id=5`, `;id` for an
    /// empty one, `;id=3,4,5`), each item of an exploded array (`;id=3;id=4`), or an exploded
    /// object's `R=100;G=200` (from `;R=100;G=200`); a violation when the text is not so. With
    /// `decoding`, the text is as sent: each item's name is decoded to be compared, its value
    /// left as sent for the caller to split and decode.
    private func matrixText(_ text: String, decoding: Bool) -> (values: [String], violation: RequestViolation?) {
        guard text.first == ";" else {
            return ([], malformed(text, expected: "';\(name)=value' (matrix)"))
        }
        let body = text.dropFirst()
        if objectForm != nil && explode { return ([String(body)], nil) }
        let items = body.split(separator: ";", omittingEmptySubsequences: false)
        guard kinds.contains(.array) && explode || items.count == 1 else {
            return ([], malformed(text, expected: "one ';\(name)=value' (matrix)"))
        }
        var values: [String] = []
        for item in items {
            let equals = item.firstIndex(of: "=")
            let itemName = item[..<(equals ?? item.endIndex)]
            guard itemName == name || decoding && Self.piece(itemName, decoding: true) == name else {
                return ([], malformed(text, expected: "';\(name)=value' items (matrix)"))
            }
            values.append(equals.map { String(item[item.index(after: $0)...]) } ?? "")
        }
        return (values, nil)
    }

    /// The violation of a required parameter that is absent, if it is required.
    private func missing() -> [RequestViolation] {
        guard required else { return [] }
        return [
            RequestViolation(
                location: locationName, expected: "a value", found: "nothing",
                message: "the required \(location.rawValue) parameter '\(name)' is missing")
        ]
    }

    private func malformed(_ text: String, expected: String) -> RequestViolation {
        RequestViolation(
            location: locationName, expected: expected, found: ViolationText.quoted(text),
            message: "the \(location.rawValue) parameter '\(name)' should be \(expected)")
    }

    /// The schema's violations of a value read from the request, located below the parameter.
    private func violations(of value: JSONValue, limit: Int) -> [RequestViolation] {
        validator.violations(value, limit: limit).map { violation in
            let below = violation.path.hasPrefix("$") ? String(violation.path.dropFirst()) : violation.path
            return RequestViolation(
                location: locationName + below, expected: violation.expected,
                found: ViolationText.found(violation.found),
                message: "the \(location.rawValue) parameter '\(name)\(below)' should be \(violation.expected), "
                    + "not \(violation.found)")
        }
    }

    /// The text as the first of the kinds it reads as (a number, a Boolean), else as a string:
    /// the schema then says whether a string is what it wants.
    static func read(_ text: String, as kinds: [JSONKind]) -> JSONValue {
        if kinds.contains(.integer) || kinds.contains(.number) {
            if text.first != "+", let integer = Int64(text) { return .int(integer) }
            // JSON's number grammar, not Double's (no `inf`, `nan` or hexadecimal).
            if text.first.map({ $0 == "-" || $0.isASCII && $0.isNumber }) == true,
                case .number(let number)? = try? JSONValue(parsing: text)
            {
                return .number(number)
            }
        }
        if kinds.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }
}

extension String {
    /// A header's list items may have whitespace around them (RFC 9110 §5.6.1); other values
    /// are kept as sent.
    fileprivate func trimmed(_ location: ContractParameter.Location) -> String {
        guard location == .header else { return self }
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return String(self[start..<Swift.max(start, end)])
    }
}
