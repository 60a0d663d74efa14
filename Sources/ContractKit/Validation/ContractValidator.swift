import APISchema
import JSONKit

/// Checks responses against a ``Contract``: status, media type, that the body is JSON, every
/// value against its schema, and that the app's real `Codable` type decodes it.
///
/// ```swift
/// let (contract, models) = try app.make()     // app: a ConsumerContract
/// let validator = ContractValidator(contract: contract, models: models)
/// let operation = contract.operation(named: "GET /pets")!
/// let result = validator.validate(ObservedResponse(url: url, status: 200, body: bytes), for: operation)
/// for finding in result.findings { print(finding.id, finding.path, finding.message) }
/// ```
///
/// Every finding is returned, not the first; repeats across array items are collapsed into
/// one finding with a count and the first concrete path (`$[2].vetId`).
public struct ContractValidator: Sendable {
    /// The contract checked against.
    public let contract: Contract
    /// The real types bodies are decoded with.
    public let models: ModelRegistry
    private let plans: [String: PlanNode]
    /// Frees the nodes' cycles when the last copy of the validator goes.
    private let graph: PlanGraph

    /// Creates a validator; schemas are compiled once here.
    public init(contract: Contract, models: ModelRegistry = ModelRegistry()) {
        self.contract = contract
        self.models = models
        var compiler = ValidationPlan(contract: contract)
        var plans: [String: PlanNode] = [:]
        for operation in contract.operations {
            for response in operation.responses {
                guard let schema = response.schema else { continue }
                plans[ContractValidator.planKey(operation, response)] = compiler.compile(schema)
            }
        }
        self.plans = plans
        graph = PlanGraph(compiler.nodes)
    }

    private static func planKey(_ operation: ContractOperation, _ response: ContractResponse) -> String {
        operation.name + " " + response.status
    }

    /// Checks one response of `operation`.
    public func validate(
        _ response: ObservedResponse, for operation: ContractOperation, expecting: StatusExpectation = .documented
    ) -> ResponseValidation {
        var findings: [Finding] = []
        func add(
            _ id: FindingID, path: String = "$", expected: String, actual: String, swift: String? = nil,
            message: String, hint: String? = nil, count: Int = 1, excerpt: BodyExcerpt? = nil
        ) {
            findings.append(
                Finding(
                    id: id, operation: operation.name, url: response.url, status: response.status, path: path,
                    count: count, expected: expected, actual: actual, swift: swift, message: message, hint: hint,
                    excerpt: excerpt))
        }
        let documented = operation.response(for: response.status)
        if case .success(let reason) = expecting, !(200..<300).contains(response.status) {
            let expected = operation.responses.filter(\.isSuccess).map(\.status).joined(separator: " or ")
            // A documented client error (404) for an id the API itself handed out is a dangling
            // reference in its data: the app drops that row, so a warning. Anything else (5xx,
            // an undocumented status) means the endpoint itself broke.
            if documented != nil, (400..<500).contains(response.status) {
                add(
                    .referenceDangling, expected: expected.isEmpty ? "2xx" : expected, actual: response.statusText,
                    message: "status \(response.statusText) for a resource the API referenced (\(reason))")
            } else {
                add(
                    .statusUnexpected, expected: expected.isEmpty ? "2xx" : expected, actual: response.statusText,
                    message: "status \(response.statusText) where a success was expected (\(reason))")
            }
            return ResponseValidation(findings: findings, body: nil)
        }
        guard let documented else {
            add(
                .statusUnexpected, expected: operation.documentedStatuses.joined(separator: " or "),
                actual: response.statusText + ContractValidator.bodyNote(response),
                message: "status \(response.statusText) is not documented for \(operation.name)")
            return ResponseValidation(findings: findings, body: nil)
        }
        guard let expectedMedia = documented.mediaType else { return ResponseValidation(findings: findings, body: nil) }
        let media = response.mediaType
        if !ContractValidator.mediaTypeMatches(media, expectedMedia) {
            add(
                .mediaTypeUnexpected, expected: expectedMedia, actual: response.contentType ?? "no Content-Type",
                message: "media type \(media.map { "'\($0)'" } ?? "missing") where the contract says '\(expectedMedia)'"
            )
        }
        guard let schema = documented.schema, let plan = plans[ContractValidator.planKey(operation, documented)] else {
            return ResponseValidation(findings: findings, body: nil)
        }
        // A schema of a media type that is not JSON (`text/html`, `text/plain`) describes text,
        // which is not read as JSON: its media type is all that is checked.
        if !ContractValidator.isJSON(expectedMedia.lowercased()) && !ContractValidator.isJSON(media ?? "") {
            return ResponseValidation(findings: findings, body: nil)
        }
        let rootSwift = documented.swiftType ?? schema.swiftType
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            add(
                .bodyEmpty, expected: "JSON (\(plan.typeText))", actual: "\(response.body.count) bytes",
                swift: rootSwift,
                message: "the body is empty")
            return ResponseValidation(findings: findings, body: nil)
        }
        // Decode with the real type before building our own tree, so the two peaks of memory
        // do not add up.
        let decoded = rootSwift.map { models.decode(response.body, as: $0) }
        let body: JSONValue
        do {
            body = try JSONValue(parsing: response.body)
        } catch {
            let excerpt = ContractValidator.textExcerpt(response.body)
            let around = BodyExcerpt.around(offset: error.offset, in: response.body)
            if error.isTruncation {
                add(
                    .bodyTruncated, expected: "complete JSON (\(plan.typeText))", actual: excerpt, swift: rootSwift,
                    message: "the body is truncated JSON: \(error)", excerpt: around)
            } else {
                add(
                    .bodyNotJSON, expected: "JSON (\(plan.typeText))", actual: excerpt, swift: rootSwift,
                    message: "the body is not JSON: \(error)", excerpt: around)
            }
            return ResponseValidation(findings: findings, body: nil)
        }
        var walker = BodyWalker(rootSwift: rootSwift)
        walker.walk(body, plan)
        for (position, occurrence) in walker.occurrences.enumerated() {
            // The first findings of a response carry the body around them (bounded: see
            // BodyExcerpt); FindingCollector keeps a few KB of them per operation.
            let excerpt =
                position < BodyExcerpt.perResponse
                ? BodyExcerpt.around(occurrence.path, in: body, actual: occurrence.actual) : nil
            add(
                occurrence.id, path: occurrence.path.description, expected: occurrence.expected,
                actual: occurrence.actual,
                swift: occurrence.swift, message: occurrence.message, hint: occurrence.hint, count: occurrence.count,
                excerpt: excerpt)
        }
        if let typeName = rootSwift, case .failed(let path, let message)? = decoded {
            add(
                .decodeFailed, path: path.description, expected: "the body decodes as \(typeName)",
                actual: ContractValidator.shorten(message, to: 160),
                swift: ContractValidator.swiftText(at: path, in: plan) ?? typeName,
                message: "decoding \(typeName) throws at \(path): \(ContractValidator.shorten(message, to: 120))",
                excerpt: BodyExcerpt.around(path, in: body, actual: ""))
        }
        return ResponseValidation(findings: findings, body: body)
    }

    /// `application/json` matches itself and any `+json` type; other types must be equal.
    static func mediaTypeMatches(_ actual: String?, _ expected: String) -> Bool {
        guard let actual else { return false }
        let expected = expected.lowercased()
        if actual == expected { return true }
        return isJSON(expected) && isJSON(actual)
    }

    /// Whether a lower-cased media type is JSON: `application/json` or any `+json` type.
    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json")
    }

    /// The Swift property for a decoding path, from the schema's `x-swift-property`.
    static func swiftText(at path: JSONPath, in plan: PlanNode) -> String? {
        var node = plan
        var text: String? = plan.swiftType
        for component in path.components {
            while let delegate = node.delegate { node = delegate }
            switch component {
            case .key(let key):
                guard let position = node.propertyIndex[key] else { return text }
                text = node.properties[position].swift ?? text
                node = node.properties[position].node
            case .index:
                guard let items = node.items else { return text }
                node = items
                text = items.swiftType ?? text
            default: return text
            }
        }
        return text
    }

    /// The first 60 characters of a body as text, for quoting what came instead of JSON.
    static func textExcerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(240), as: UTF8.self)
        let flat = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        var collapsed = ""
        for character in flat where !(character == " " && collapsed.last == " ") { collapsed.append(character) }
        return shorten(collapsed, to: 60)
    }

    static func bodyNote(_ response: ObservedResponse) -> String {
        guard !response.body.isEmpty else { return "" }
        return " (\(response.mediaType ?? "no media type"): '\(textExcerpt(response.body))')"
    }

    static func shorten(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 3)) + "..."
    }
}
