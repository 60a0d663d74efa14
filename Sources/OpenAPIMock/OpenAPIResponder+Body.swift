import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

extension OpenAPIResponder {
    /// A body's bytes in its media type: a string example as it is for a media type that is not
    /// JSON; an object or array as XML under an XML type (`application/xml`, `text/xml`, `+xml`),
    /// as its schema's `xml` objects say (``XMLBody``); else JSON. Nil when it cannot be sent in
    /// that media type: an object or array under another `text/*` type (no JSON text under a
    /// type that promises none), or a value XML cannot hold; why, as a sentence.
    static func serialized(
        _ body: JSONValue?, _ content: ResponseContent?, in contract: Contract
    ) -> Result<[UInt8], BodyRefusal> {
        guard let body else { return .success([]) }
        let mediaType = content?.mediaType.mediaTypeEssence ?? ""
        if case .string(let text) = body, !mediaType.contains("json") { return .success(Array(text.utf8)) }
        if isXML(mediaType) {
            switch XMLBody.text(of: body, schema: content?.schema, in: contract) {
            case .success(let text): return .success(Array(text.utf8))
            case .failure(let failure):
                return .failure(BodyRefusal(reason: "the body cannot be written as XML: \(failure)"))
            }
        }
        if mediaType.hasPrefix("text/") {
            switch body {
            case .object, .array:
                return .failure(
                    BodyRefusal(
                        reason: "the body is \(body.kind == .object ? "an object" : "an array"), which \(mediaType) "
                            + "cannot carry (a string example is sent as it is)"))
            default: break
            }
        }
        return .success(body.serializedBytes())
    }

    /// Why a body cannot be sent in its media type.
    struct BodyRefusal: Error, Sendable, Hashable {
        var reason: String
    }

    /// Whether `mediaType` (its essence) is XML: `application/xml`, `text/xml`, or a `+xml` type.
    static func isXML(_ mediaType: String) -> Bool {
        mediaType == "application/xml" || mediaType == "text/xml" || mediaType.hasSuffix("+xml")
    }

    /// The 500 of an answer whose body its media type cannot carry: a problem document saying
    /// why, with the operation, the documented status and the media type.
    static func unserializable(
        _ operation: ContractOperation, status: String, content: ResponseContent?, _ refusal: BodyRefusal
    ) -> PreparedResponse {
        let mediaType = content?.mediaType ?? ""
        return ProblemDocument.response(
            status: 500, kind: ProblemDocument.cannotSerialize,
            detail: "\(operation.name) \(status) \(mediaType): \(refusal.reason)",
            members: [
                "operation": .string(operation.name), "documentedStatus": .string(status),
                "mediaType": .string(mediaType),
            ])
    }

    /// The 500 of an example that breaks its own response schema, with `--errors`: a problem
    /// document listing the violations.
    static func invalidExample(
        _ operation: ContractOperation, status: String, content: ResponseContent, _ example: String,
        _ violations: [RequestViolation]
    ) -> PreparedResponse {
        let which = example.isEmpty ? "its example" : "its example '\(example)'"
        return ProblemDocument.response(
            status: 500, kind: ProblemDocument.invalidResponse,
            detail: "\(operation.name) \(status) \(content.mediaType): \(which) breaks the response schema: "
                + (violations.first?.description ?? "")
                + (violations.count > 1 ? " (and \(violations.count - 1) more)" : ""),
            members: [
                "operation": .string(operation.name), "documentedStatus": .string(status),
                "mediaType": .string(content.mediaType), "violations": ProblemDocument.listed(violations),
            ])
    }

    /// The key of an example in ``exampleViolations``: its name, or empty for the one answered
    /// when none is asked for.
    static func exampleKey(
        _ operation: ContractOperation, _ status: String, _ mediaType: String, _ example: String
    )
        -> String
    {
        "\(operation.name) \(status) \(mediaType) \(example)"
    }

    /// Every JSON example of every response checked against its response schema, once, when
    /// the document loads: the violations of those that break it, by ``exampleKey(_:_:_:_:)``,
    /// and one line for each such example (a named one by its name).
    static func exampleViolations(in contract: Contract) -> (byKey: [String: [RequestViolation]], lines: [String]) {
        var found: [String: [RequestViolation]] = [:]
        var lines: [String] = []
        for operation in contract.operations {
            for response in operation.responses {
                for content in contents(of: response) {
                    guard let schema = content.schema, ResponseCheck.isJSON(content.mediaType) else { continue }
                    var examples = content.namedExamples.map { (name: $0.name, value: $0.value) }
                    // The example answered when none is named: the first named one (checked
                    // as such above), else `example`.
                    let first = content.namedExamples.first?.value ?? content.examples.first
                    if let first { examples.append((name: "", value: first)) }
                    guard !examples.isEmpty else { continue }
                    let check = ResponseCheck(schema, in: contract)
                    for example in examples {
                        let violations = check.violations(example.value)
                        guard !violations.isEmpty else { continue }
                        found[exampleKey(operation, response.status, content.mediaType, example.name)] = violations
                        guard !example.name.isEmpty || content.namedExamples.isEmpty else { continue }
                        let which = example.name.isEmpty ? "its example" : "its example '\(example.name)'"
                        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
                        lines.append(
                            "\(operation.name) \(response.status) \(content.mediaType): \(which) breaks the response "
                                + "schema: \(violations[0].description)\(more)")
                    }
                }
            }
        }
        return (found, lines)
    }

    /// The violations of the example `answer` was made from; empty for any other answer.
    func responseViolations(of answer: PreparedResponse) -> [RequestViolation] {
        guard !exampleViolations.isEmpty else { return [] }
        return violationsOfAnswers.withLock { $0[ObjectIdentifier(answer)]?.violations } ?? []
    }

    /// The seed of the next dynamic answer no seed was asked for: 1, 2, 3, ... per responder,
    /// so that a run's answers are made again by the same requests in the same order.
    func nextSeed() -> UInt64 {
        dynamicCount.withLock { count in
            count += 1
            return count
        }
    }
}
