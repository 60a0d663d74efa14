/// A variant of the stubbed API: a named set of `metadata.variant` mappings, or a drift
/// generated from any stub's response with no file at all.
///
/// ```swift
/// try Variant("missing:lastName")      // .missing("lastName")
/// try Variant("rename:vetId=vet_id")   // .rename("vetId", to: "vet_id")
/// try Variant("pets-wrapped")          // .named("pets-wrapped")
/// ```
public enum Variant: Sendable, Hashable, CustomStringConvertible {
    /// The mappings whose `metadata.variant` is this name overlay the base.
    case named(String)
    /// The field removed from every JSON object in the body that has it.
    case missing(String)
    /// The field's value replaced by `null` in every JSON object that has it.
    case null(String)
    /// The field's value replaced by a value of another JSON type.
    case type(String)
    /// The field renamed, keeping its place and value, in every JSON object that has it.
    case rename(String, to: String)
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
    public static let reservedNames: Set<String> = ["truncated", "empty", "html-error", "reset"]

    /// The generated forms, with what each does, for listings and error messages.
    public static let generatedForms: [(form: String, summary: String)] = [
        ("missing:FIELD", "FIELD removed from every JSON object in the body that has it"),
        ("null:FIELD", "FIELD set to null in every JSON object that has it"),
        ("type:FIELD", "FIELD as another JSON type (number<->string, boolean->string, null->string, array<->object)"),
        ("rename:FIELD=NEW", "FIELD renamed to NEW in every JSON object that has it"),
        ("truncated", "the body cut in half, with a matching Content-Length"),
        ("empty", "the same status and headers, no body"),
        ("html-error", "a 502 HTML page from a proxy instead"),
        ("slow:MS", "the response MS milliseconds later"),
        ("reset", "the connection reset (TCP RST) instead of a response"),
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
            case "missing": self = .missing(argument)
            case "null": self = .null(argument)
            case "type": self = .type(argument)
            case "rename":
                guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex,
                    argument.index(after: equals) != argument.endIndex
                else { throw VariantError(name: text, reason: "expected 'rename:FIELD=NEW'") }
                self = .rename(String(argument[..<equals]), to: String(argument[argument.index(after: equals)...]))
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

/// A variant name that cannot be used: malformed, or naming no file variant.
public struct VariantError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public let name: String
    /// Why it cannot be used.
    public let reason: String
    /// The file variants that exist, when the name was not one of them.
    public let knownVariants: [String]

    /// Creates an error.
    public init(name: String, reason: String, knownVariants: [String] = []) {
        self.name = name
        self.reason = reason
        self.knownVariants = knownVariants
    }

    public var description: String {
        var text = "Unknown variant '\(name)': \(reason)"
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
