import APISchema
import HTTPCore
import JSONKit
import MockEngine

/// One documented parameter, compiled once: where it is read, how its text splits into values
/// (`style`, `explode`), which JSON kinds its text is read as, and its schema's validator.
final class ParameterCheck: Sendable {
    /// How an array's text is split.
    enum Splitting: Sendable {
        /// One value per occurrence (`form` exploded: `?id=1&id=2`).
        case occurrences
        /// One occurrence split on a separator (`,`, ` `, `|`, or `.` for `label`).
        case separator(Character)
    }

    let name: String
    let location: ContractParameter.Location
    let required: Bool
    /// The schema's kinds, null left out (empty: any); the text is read as the first that fits.
    let kinds: [JSONKind]
    /// The kinds of an array's items.
    let itemKinds: [JSONKind]
    let splitting: Splitting
    /// Whether the value is checked at all: `deepObject` and object-typed parameters are only
    /// checked for presence.
    let checksValue: Bool
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
        let style =
            parameter.style ?? (parameter.location == .query || parameter.location == .cookie ? "form" : "simple")
        let explode = parameter.explode ?? (style == "form")
        switch style {
        case "form": splitting = explode && location == .query ? .occurrences : .separator(",")
        case "spaceDelimited": splitting = .separator(" ")
        case "pipeDelimited": splitting = .separator("|")
        case "label": splitting = .separator(explode ? "." : ",")
        default: splitting = .separator(",")
        }
        checksValue = style != "deepObject" && !kinds.contains(.object)
        validator = JSONSchemaValidator(schema: parameter.schema, in: contract)
        plain = PlainValueCheck(schema)
    }

    /// Where violations of this parameter are reported: `query.limit`.
    var locationName: String { "\(location.rawValue).\(name)" }

    /// The parameter's violations given its occurrences in the request (decoded text, in
    /// order; empty when absent).
    func violations(_ occurrences: [String], limit: Int) -> [RequestViolation] {
        guard let first = occurrences.first else {
            guard required else { return [] }
            return [
                RequestViolation(
                    location: locationName, expected: "a value", found: "nothing",
                    message: "the required \(location.rawValue) parameter '\(name)' is missing")
            ]
        }
        guard checksValue else { return [] }
        let value: JSONValue
        if kinds.contains(.array) {
            let texts: [String]
            switch splitting {
            case .occurrences: texts = occurrences
            case .separator(let separator):
                var text = Substring(first)
                if separator == ".", text.hasPrefix(".") { text = text.dropFirst() }
                let parts = text.isEmpty ? [] : text.split(separator: separator, omittingEmptySubsequences: false)
                // A header's list items may have whitespace around them (RFC 9110 §5.6.1).
                texts = parts.map { location == .header ? String($0.trimmingSpaces) : String($0) }
            }
            value = .array(texts.map { Self.read($0, as: itemKinds) })
        } else {
            value = Self.read(first, as: kinds)
        }
        if let plain, plain.passes(value) { return [] }
        return validator.violations(value, limit: limit).map { violation in
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

extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}
