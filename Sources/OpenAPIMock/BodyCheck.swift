import APISchema
import HTTPCore
import JSONKit
import MockEngine

/// An operation's `requestBody`, compiled once: whether it is required, and per documented
/// media type the validator of its schema.
final class BodyCheck: Sendable {
    // Classes, not values: a request reaches them by reference, with no copy of what they hold.
    final class Media: Sendable {
        /// As documented, lowercased: `application/json`, `application/*`, `*/*`.
        let mediaType: String
        /// Its validator; nil when undescribed.
        let validator: JSONSchemaValidator?
        /// Its properties, for reading form fields and parts as their schemas say.
        let members: ParameterMembers?
        /// `encoding`, by property name.
        let encoding: [String: ContractEncoding]
        /// The form fields that must percent-encode reserved characters.
        let reserved: ReservedCharacterCheck
        /// A multipart part's documented header fields (its encoding's `headers`), by property
        /// name, each read and checked as a header parameter is.
        let partHeaders: [String: [ParameterCheck]]

        init(_ entry: ContractMediaType, in contract: Contract, validators: SchemaValidators) {
            mediaType = entry.mediaType.lowercased()
            validator = entry.schema.map { validators.validator(for: $0) }
            var partHeaders: [String: [ParameterCheck]] = [:]
            for (property, encoding) in entry.encoding where !encoding.headers.isEmpty {
                partHeaders[property] = encoding.headers.map { header in
                    ParameterCheck(
                        ContractParameter(
                            name: header.name, location: .header, required: header.required,
                            schema: header.schema ?? Schema()), in: contract)
                }
            }
            self.partHeaders = partHeaders
            members = entry.schema.map { ParameterMembers($0, in: contract) }
            encoding = entry.encoding
            var targets: [String: ReservedCharacterCheck.Target] = [:]
            if mediaType == "application/x-www-form-urlencoded" {
                for name in members?.properties.keys.sorted() ?? [] where encoding[name]?.allowReserved != true {
                    let separator = Self.separator(encoding[name]).map { Array(String($0).utf8) } ?? []
                    targets[name] = ReservedCharacterCheck.Target(location: "body.$." + name, separators: separator)
                }
            }
            reserved = ReservedCharacterCheck(exact: targets)
        }

        /// The separator of an array field's values in one occurrence, from its encoding's
        /// `style` and `explode`; nil when each occurrence is one value (`form` exploded).
        static func separator(_ encoding: ContractEncoding?) -> Character? {
            let style = encoding?.style ?? "form"
            guard !(encoding?.explode ?? (style == "form")) else { return nil }
            switch style {
            case "spaceDelimited": return " "
            case "pipeDelimited": return "|"
            case ContractParameter.tabDelimited: return "\t"
            default: return ","
            }
        }
    }

    /// What a body's check found: the violations, and whether the body could be read at all
    /// (a violation of the media type or of well-formedness is not a schema violation); a valid
    /// JSON body comes with its value, so that it is parsed once.
    enum Outcome {
        case valid(JSONValue?)
        case unsupportedMediaType(RequestViolation)
        case malformed([RequestViolation])
        case invalid([RequestViolation])
    }

    let required: Bool
    let media: [Media]

    /// The checks of `body`; `validators` compiles each schema once for every check made with it.
    init(_ body: ContractRequestBody, in contract: Contract, validators: SchemaValidators? = nil) {
        required = body.required
        let validators = validators ?? SchemaValidators(contract: contract)
        media = body.content.map { Media($0, in: contract, validators: validators) }
    }

    func check(_ body: [UInt8], contentType: String?, limit: Int) -> Outcome {
        guard !body.isEmpty else {
            // With no content the Content-Type is not looked at.
            guard required else { return .valid(nil) }
            return .malformed([
                RequestViolation(
                    location: "body", expected: "a body", found: "nothing", message: "the request body is required")
            ])
        }
        // RFC 9110 §8.3: a body without Content-Type may be taken as application/octet-stream.
        let type = (contentType ?? "application/octet-stream").mediaTypeEssence
        guard let entry = chosen(type) else {
            let documented = media.map(\.mediaType).joined(separator: ", ")
            return .unsupportedMediaType(
                RequestViolation(
                    location: "header.Content-Type", expected: "one of \(documented)",
                    found: contentType.map(ViolationText.quoted) ?? "nothing",
                    message: "the request's media type is not documented for this operation"))
        }
        guard let validator = entry.validator else { return .valid(nil) }
        let value: JSONValue
        // What reading the body found: reserved characters in a form's fields, a part's media type.
        var read: [RequestViolation] = []
        if Self.isJSON(type) {
            do {
                value = try JSONValue(parsing: body)
            } catch {
                return .malformed([
                    RequestViolation(
                        location: "body", expected: "well-formed JSON", found: ViolationText.found("\(error)"),
                        message: "the request body is not well-formed JSON")
                ])
            }
        } else if type == "application/x-www-form-urlencoded" {
            let text = String(decoding: body, as: UTF8.self)
            read = entry.reserved.violations(text[...], limit: limit, subject: "form field")
            value = Self.formValue(text, entry)
        } else if type == "multipart/form-data" {
            switch Self.multipartValue(body, contentType: contentType ?? "", entry, limit: limit) {
            case .success(let parts):
                value = parts.value
                read = parts.violations
            case .failure(let malformed): return .malformed([malformed.violation])
            }
        } else {
            return .valid(nil)
        }
        let found =
            read
            + validator.violations(value, limit: max(0, limit - read.count)).map { violation in
                RequestViolation(
                    location: "body." + violation.path, expected: violation.expected,
                    found: ViolationText.found(violation.found), message: "request body: \(violation.message)")
            }
        let violations = Array(found.prefix(limit))
        return violations.isEmpty ? .valid(Self.isJSON(type) ? value : nil) : .invalid(violations)
    }

    /// The documented entry for a media type: the same type, else `type/*`, else `*/*`.
    private func chosen(_ type: String) -> Media? {
        if let exact = media.first(where: { $0.mediaType == type }) { return exact }
        let major = type.split(separator: "/").first.map { $0 + "/*" } ?? ""
        return media.first { $0.mediaType == major } ?? media.first { $0.mediaType == "*/*" }
    }

    /// JSON, or a `+json` type.
    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json")
    }
}
