import APISchema
import HTTPCore
import JSONKit
import MockEngine

/// A documented response's body schema, compiled once, and the check of an answer against it:
/// an example when the document loads, a live API's answer through the validating proxy. Its
/// violations are located under `response`: `response.body.$.id`, `response.status`,
/// `response.header.Content-Type`.
final class ResponseCheck: Sendable {
    /// The most violations one answer is reported with.
    static let limit = 50

    let validator: JSONSchemaValidator

    init(_ schema: Schema, in contract: Contract) {
        validator = JSONSchemaValidator(schema: schema, in: contract)
    }

    /// How `value` breaks the schema; empty when it follows it.
    func violations(_ value: JSONValue) -> [RequestViolation] {
        validator.violations(value, limit: Self.limit).map { violation in
            RequestViolation(
                location: "response.body." + violation.path, expected: violation.expected,
                found: ViolationText.found(violation.found), message: "response body: \(violation.message)")
        }
    }

    /// Whether a body of `mediaType` is JSON, and so checked against its schema (`application/json`,
    /// a `+json` type); other bodies are sent as they are.
    static func isJSON(_ mediaType: String) -> Bool {
        BodyCheck.isJSON(mediaType.mediaTypeEssence)
    }
}
