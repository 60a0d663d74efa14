import HTTPCore
import JSONKit
import StubFormat

/// A variant of the stubbed API: a named set of `metadata.variant` mappings, or a drift
/// generated from any stub's response with no file at all.
///
/// ```swift
/// try Variant("missing:lastName")          // .missing(.key("lastName"))
/// try Variant("type:$.owner.id")           // .type(.path(JSONPath("$.owner.id")))
/// try Variant("rename:vetId=vet_id")       // .rename(.key("vetId"), to: "vet_id")
/// try Variant("pets-wrapped")              // .named("pets-wrapped")
/// ```
public enum Variant: Sendable, Hashable, CustomStringConvertible {
    /// The mappings whose `metadata.variant` is this name overlay the base.
    case named(String)
    /// The field removed (from every JSON object in the body that has it, or where a JSONPath
    /// points).
    case missing(VariantField)
    /// The field's value replaced by `null`.
    case null(VariantField)
    /// The field's value replaced by a value of another JSON type.
    case type(VariantField)
    /// The field renamed, keeping its place and value.
    case rename(VariantField, to: String)
    /// The body cut in half (a complete HTTP response whose JSON is cut off).
    case truncated
    /// The same status and headers with an empty body.
    case empty
    /// A 502 HTML error page from a proxy instead of the response.
    case htmlError
    /// The response after this many more milliseconds.
    case slow(milliseconds: Int)
    /// The connection reset instead of a response.
    case reset

    /// The generated variants that take no argument; no file variant may use these names.
    public static var reservedNames: Set<String> { StubMapping.reservedVariantNames }

    /// The generated forms, with what each does, for listings and error messages.
    public static let generatedForms: [(form: String, summary: String)] = [
        ("missing:FIELD", "FIELD removed"),
        ("null:FIELD", "FIELD set to null"),
        ("type:FIELD", "FIELD as another JSON type (number<->string, boolean->string, null->string, array<->object)"),
        ("rename:FIELD=NEW", "FIELD renamed to NEW (a plain key), keeping its place and value"),
        ("truncated", "the body cut in half, with a matching Content-Length"),
        ("empty", "the same status and headers, no body"),
        ("html-error", "a 502 HTML page from a proxy instead"),
        ("slow:MS", "the response MS milliseconds later"),
        ("reset", "the connection reset (TCP RST) instead of a response"),
    ]

    /// How FIELD is written, and what happens when the response has no such field: for
    /// listings (one line each) and the variants catalog.
    public static let fieldAddressing = [
        "FIELD is a key: every JSON object in the body that has it, at any depth (missing:id);",
        "or a JSONPath starting with '$': only the places it selects ($[0].id, $.owner.id, $.items[*].name).",
        "Per request, a FIELD no object in that response has, a JSONPath that selects nothing there, or a body",
        "that is not JSON is a 400 listing the response's fields. Server-wide, such responses are served as they",
        "are (no Petmock-Variant header), and a FIELD that no base stub's body has is refused.",
    ]

    /// Parses a variant name; a plain word is a ``named(_:)`` variant (whether one exists is
    /// for the stub set to say).
    public init(_ text: String) throws(VariantError) {
        let trimmed = String(text.trimmingASCIIWhitespace())
        guard !trimmed.isEmpty else { throw VariantError(name: text, reason: "a variant name is empty") }
        switch trimmed {
        case "truncated": self = .truncated
        case "empty": self = .empty
        case "html-error": self = .htmlError
        case "reset": self = .reset
        default:
            guard let colon = trimmed.firstIndex(of: ":") else {
                guard !trimmed.contains(" ") else {
                    throw VariantError(name: text, reason: "a variant name has no spaces")
                }
                self = .named(trimmed)
                return
            }
            let kind = trimmed[..<colon]
            let argument = String(trimmed[trimmed.index(after: colon)...])
            guard !argument.isEmpty else {
                throw VariantError(name: text, reason: "'\(kind):' needs an argument after the colon")
            }
            switch kind {
            case "missing": self = .missing(try VariantField(argument, variant: text))
            case "null": self = .null(try VariantField(argument, variant: text))
            case "type": self = .type(try VariantField(argument, variant: text))
            case "rename":
                // A JSONPath's filter may hold '=', the new name (a plain key) may not.
                let isPath = argument.first == "$"
                guard let equals = isPath ? argument.lastIndex(of: "=") : argument.firstIndex(of: "="),
                    equals != argument.startIndex, argument.index(after: equals) != argument.endIndex
                else {
                    throw VariantError(name: text, reason: "expected 'rename:FIELD=NEW' or 'rename:$.JSONPATH=NEW'")
                }
                self = .rename(
                    try VariantField(String(argument[..<equals]), variant: text),
                    to: String(argument[argument.index(after: equals)...]))
            case "slow":
                guard let milliseconds = Int(argument), (0...600_000).contains(milliseconds) else {
                    throw VariantError(name: text, reason: "expected 'slow:MS' with MS from 0 to 600000")
                }
                self = .slow(milliseconds: milliseconds)
            default:
                throw VariantError(
                    name: text, reason: "'\(kind)' is not a generated variant (missing, null, type, rename, slow)")
            }
        }
    }

    /// Whether the variant is generated (needs no mapping file).
    public var isGenerated: Bool {
        if case .named = self { return false }
        return true
    }

    /// The field a JSON drift changes; nil for the variants that change no field.
    public var field: VariantField? {
        switch self {
        case .missing(let field), .null(let field), .type(let field), .rename(let field, _): field
        case .named, .truncated, .empty, .htmlError, .slow, .reset: nil
        }
    }

    public var description: String {
        switch self {
        case .named(let name): name
        case .missing(let field): "missing:\(field)"
        case .null(let field): "null:\(field)"
        case .type(let field): "type:\(field)"
        case .rename(let field, let new): "rename:\(field)=\(new)"
        case .truncated: "truncated"
        case .empty: "empty"
        case .htmlError: "html-error"
        case .slow(let milliseconds): "slow:\(milliseconds)"
        case .reset: "reset"
        }
    }
}

/// What a JSON drift changes: every member with this key, at any depth, or the places a
/// JSONPath selects (an argument that starts with `$`; a key that starts with `$` is written
/// `$['$key']`).
public enum VariantField: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Every member with this key, in every JSON object of the body.
    case key(String)
    /// The nodes this path selects.
    case path(JSONPath)

    /// Reads a variant's argument: a JSONPath when it starts with `$`, else a key.
    public init(_ text: String) throws(JSONPathError) {
        self = text.first == "$" ? .path(try JSONPath(text)) : .key(text)
    }

    /// Reads the argument of the variant `variant`, naming it in the error.
    init(_ text: String, variant: String) throws(VariantError) {
        do {
            try self.init(text)
        } catch {
            throw VariantError(name: variant, reason: "invalid JSONPath: \(error)")
        }
    }

    public init(stringLiteral key: String) {
        self = .key(key)
    }

    public var description: String {
        switch self {
        case .key(let key): key
        case .path(let path): path.description
        }
    }
}

/// A variant that cannot be used: malformed, naming no file variant, or (with
/// ``knownFields``) a JSON drift whose field the body does not have.
///
/// One rule for both: the name as given, why, and what exists instead. Its description is
/// the message of the 400 a request or `PUT /__admin/petmock/variant` gets.
public struct VariantError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public let name: String
    /// Why it cannot be used.
    public let reason: String
    /// The names that exist (file variants, base mappings' example names), when the name was
    /// not one of them.
    public let knownVariants: [String]
    /// The JSON fields that exist (sorted, without duplicates) when the variant's field is not
    /// among them or its JSONPath selects nothing; nil when the error is about the name.
    public let knownFields: [String]?

    /// How many known fields a message lists before "and N more".
    public static let listedFieldLimit = 30

    /// Creates an error.
    public init(name: String, reason: String, knownVariants: [String] = [], knownFields: [String]? = nil) {
        self.name = name
        self.reason = reason
        self.knownVariants = knownVariants
        self.knownFields = knownFields
    }

    /// The variant most likely meant, when the name is near a known one: a file variant or a
    /// generated form (`truncated` for `truncatd`, `missing:vetId` for `mising:vetId`), or
    /// with ``knownFields`` the same drift of the nearest field (`missing:vetId` for `missing:vetid`).
    public var suggestion: String? {
        let trimmed = String(name.trimmingASCIIWhitespace())
        guard let colon = trimmed.firstIndex(of: ":") else {
            return StringDistance.nearest(
                to: trimmed, among: knownVariants + ["truncated", "empty", "html-error", "reset"])
        }
        let kind = String(trimmed[..<colon])
        let argument = String(trimmed[trimmed.index(after: colon)...])
        if let knownFields {
            let field = kind == "rename" ? String(argument.prefix { $0 != "=" }) : argument
            guard let nearest = StringDistance.nearest(to: field, among: knownFields) else { return nil }
            return kind + ":" + nearest + argument.dropFirst(field.count)
        }
        let kinds = Variant.generatedForms.compactMap { form in
            form.form.firstIndex(of: ":").map { String(form.form[..<$0]) }
        }
        guard !kinds.contains(kind), let nearest = StringDistance.nearest(to: kind, among: kinds) else { return nil }
        return nearest + ":" + argument
    }

    public var description: String {
        let meant = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        if let knownFields {
            var text = "Variant '\(name)'\(meant) does not apply: \(reason). Known fields: "
            if knownFields.isEmpty { return text + "(none)" }
            text += knownFields.prefix(Self.listedFieldLimit).joined(separator: ", ")
            if knownFields.count > Self.listedFieldLimit {
                text += " and \(knownFields.count - Self.listedFieldLimit) more"
            }
            return text
        }
        var text = "Unknown variant '\(name)'\(meant): \(reason)"
        text +=
            ". Known variants: "
            + (knownVariants.isEmpty ? "(no file variants)" : knownVariants.joined(separator: ", "))
        text += "; generated: " + Variant.generatedForms.map(\.form).joined(separator: ", ")
        return text
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> SubSequence {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
