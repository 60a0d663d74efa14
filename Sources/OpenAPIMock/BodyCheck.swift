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
        /// Its schema resolved (for reading form fields), and its validator; nil when undescribed.
        let schema: Schema?
        let validator: JSONSchemaValidator?

        init(mediaType: String, schema: Schema?, validator: JSONSchemaValidator?) {
            self.mediaType = mediaType
            self.schema = schema
            self.validator = validator
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
    private let contract: Contract

    init(_ body: ContractRequestBody, in contract: Contract) {
        required = body.required
        self.contract = contract
        media = body.content.map { entry in
            Media(
                mediaType: entry.mediaType.lowercased(), schema: entry.schema.flatMap(contract.resolve),
                validator: entry.schema.map { JSONSchemaValidator(schema: $0, in: contract) })
        }
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
            value = formValue(body, entry.schema)
        } else {
            return .valid(nil)
        }
        let violations = validator.violations(value, limit: limit).map { violation in
            RequestViolation(
                location: "body." + violation.path, expected: violation.expected,
                found: ViolationText.found(violation.found), message: "request body: \(violation.message)")
        }
        return violations.isEmpty ? .valid(Self.isJSON(type) ? value : nil) : .invalid(violations)
    }

    /// The documented entry for a media type: the same type, else `type/*`, else `*/*`.
    private func chosen(_ type: String) -> Media? {
        if let exact = media.first(where: { $0.mediaType == type }) { return exact }
        let major = type.split(separator: "/").first.map { $0 + "/*" } ?? ""
        return media.first { $0.mediaType == major } ?? media.first { $0.mediaType == "*/*" }
    }

    /// A form body as an object, each field read as the kind its property documents (the
    /// first occurrence of a name; an array property takes every occurrence).
    private func formValue(_ body: [UInt8], _ schema: Schema?) -> JSONValue {
        var names: [String] = []
        var values: [String: [JSONValue]] = [:]
        var kindsOf: [String: (kinds: [JSONKind], items: [JSONKind])] = [:]
        for property in schema?.properties ?? [] where kindsOf[property.name] == nil {
            let resolved = contract.resolve(property.schema)
            kindsOf[property.name] = (
                resolved?.nonNullTypes ?? [], resolved?.items.flatMap { contract.resolve($0)?.nonNullTypes } ?? []
            )
        }
        for (name, text) in QueryParameters.parse(String(decoding: body, as: UTF8.self)) {
            let kinds = kindsOf[name] ?? ([], [])
            let isArray = kinds.kinds.contains(.array)
            if values[name] == nil {
                names.append(name)
            } else if !isArray {
                continue
            }
            values[name, default: []].append(ParameterCheck.read(text, as: isArray ? kinds.items : kinds.kinds))
        }
        return .object(
            JSONObject(
                names.map { name in
                    let found = values[name] ?? []
                    let isArray = kindsOf[name]?.kinds.contains(.array) ?? false
                    return JSONMember(key: name, value: isArray ? .array(found) : found.first ?? .null)
                }))
    }

    /// JSON, or a `+json` type.
    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json")
    }
}
