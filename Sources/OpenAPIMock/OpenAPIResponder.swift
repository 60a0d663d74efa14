import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Platform

/// Answers requests from an OpenAPI document, as Prism does: the documented operation's
/// example, or a body generated from its schema; petmock's fallback when no stub matches.
///
/// ```swift
/// let contract = try OpenAPIReader().read(file: "items.yaml")
/// let responder = OpenAPIResponder(contract: contract)
/// let handler = try StubHandler(configuration: StubHandlerConfiguration(fallback: responder))
/// ```
public final class OpenAPIResponder: FallbackReplySource {
    /// The document answered from.
    public let contract: Contract
    /// Where its paths are mounted: the first server URL's path, `--base-path`, or empty (the root).
    public let basePath: String
    private let routes: [(template: PathTemplate, operation: ContractOperation)]
    // Answers are built once per (operation, status, example) and reused.
    private let cache = Locked<[String: PreparedResponse]>([:])

    /// Serves `contract` under `basePath`, or under the path of its first `servers` URL when nil.
    public init(contract: Contract, basePath: String? = nil) {
        self.contract = contract
        self.basePath = Self.normalized(basePath ?? contract.servers.first.map(Self.path(ofServer:)) ?? "")
        routes = contract.operations.map { (PathTemplate($0.path), $0) }
            .sorted { $0.template.literalCount > $1.template.literalCount }
    }

    /// How many operations the document has.
    public var operationCount: Int { contract.operations.count }

    /// The path of a server URL: `/v2` for `https://items.example.com/v2`.
    static func path(ofServer url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        return String(rest[slash...])
    }

    private static func normalized(_ path: String) -> String {
        var path = path
        while path.hasSuffix("/") { path.removeLast() }
        if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
        return path
    }

    public func reply(to request: HTTPServerRequest) -> PreparedResponse? {
        answer(method: request.method, path: String(request.path), headers: request.headers)
    }

    /// The answer to a request: nil outside the mount point, else the operation's answer, a 404
    /// naming the closest operations, or a 405 with `Allow`.
    public func answer(method: HTTPMethod, path: String, headers: HTTPHeaders) -> PreparedResponse? {
        guard path == basePath || path.hasPrefix(basePath + "/") else { return nil }
        let below = String(path.dropFirst(basePath.count))
        let parts = below.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
        let candidates = routes.filter { $0.template.matches(Array(parts)) }
        let method = method == .head ? HTTPMethod.get : method
        guard let route = candidates.first(where: { $0.operation.method == method }) else {
            if candidates.isEmpty { return notFound(below) }
            return notAllowed(method, candidates.map(\.operation))
        }
        return answer(route.operation, preference: Preference(headers))
    }

    private func answer(_ operation: ContractOperation, preference: Preference) -> PreparedResponse {
        let status: String
        if let code = preference.code {
            guard let declared = operation.responses.first(where: { $0.status == String(code) }) else {
                let statuses = operation.documentedStatuses.joined(separator: ", ")
                return Self.text(
                    400, "\(operation.name) does not document status \(code); documented: \(statuses)")
            }
            status = declared.status
        } else {
            let successes = operation.responses.filter { Int($0.status).map { (200..<300).contains($0) } ?? false }
            status = successes.min { $0.status < $1.status }?.status ?? operation.responses.first?.status ?? "200"
        }
        let key = "\(operation.name) \(status) \(preference.example ?? "")"
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let prepared = build(operation, status: status, example: preference.example)
        cache.withLock { $0[key] = prepared }
        return prepared
    }

    private func build(_ operation: ContractOperation, status: String, example name: String?) -> PreparedResponse {
        let code = Int(status) ?? (status.first.flatMap { Int(String($0)) }.map { $0 * 100 } ?? 200)
        guard let response = operation.responses.first(where: { $0.status == status }) else {
            return PreparedResponse(HTTPResponse(status: HTTPStatus(code: code), body: []))
        }
        var generator = BodyGenerator(contract: contract, seed: operation.name)
        var headers = HTTPHeaders()
        if let mediaType = response.mediaType { headers.add(name: "Content-Type", value: mediaType) }
        for header in response.headers where !header.name.equalsIgnoringASCIICase("Content-Type") {
            guard let value = header.example ?? header.schema.map({ generator.value(for: $0) }) else { continue }
            headers.add(name: header.name, value: Self.headerText(value))
        }
        var body: JSONValue?
        if let name {
            guard let chosen = response.namedExamples.first(where: { $0.name == name }) else {
                let names = response.namedExamples.map(\.name).joined(separator: ", ")
                return Self.text(
                    400,
                    "\(operation.name) \(status) has no example '\(name)'; examples: \(names.isEmpty ? "none" : names)")
            }
            body = chosen.value
        } else if let first = response.namedExamples.first?.value ?? response.examples.first {
            body = first
        } else if let schema = response.schema {
            body = generator.value(for: schema)
        }
        if body != nil && response.mediaType == nil { headers.add(name: "Content-Type", value: "application/json") }
        return PreparedResponse(
            HTTPResponse(status: HTTPStatus(code: code), headers: headers, body: body?.serializedBytes() ?? []))
    }

    /// A header's value from a JSON example: a string as it is, anything else as JSON; line breaks
    /// and other control characters are left out, so a document cannot split the head.
    private static func headerText(_ value: JSONValue) -> String {
        var text = value.serialized()
        if case .string(let string) = value { text = string }
        return String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }

    private func notFound(_ path: String) -> PreparedResponse {
        let closest = routes.map(\.operation)
            .sorted { StringDistance.levenshtein($0.path, path) < StringDistance.levenshtein($1.path, path) }
            .prefix(3).map(\.name)
        let message = "No operation of the document matches \(path)"
        let body: JSONObject = [
            "code": 404, "message": .string(message), "closest": .array(closest.map(JSONValue.string)),
        ]
        return Self.json(404, .object(body), mediaType: "application/json")
    }

    private func notAllowed(_ method: HTTPMethod, _ operations: [ContractOperation]) -> PreparedResponse {
        let allow = operations.map(\.method.rawValue).joined(separator: ", ")
        var response = HTTPResponse(
            status: HTTPStatus(code: 405),
            text: "\(method.rawValue) is not documented for this path; allowed: \(allow)\n")
        response.headers.add(name: "Allow", value: allow)
        return PreparedResponse(response)
    }

    private static func json(_ code: Int, _ value: JSONValue, mediaType: String?) -> PreparedResponse {
        PreparedResponse(
            HTTPResponse(
                status: HTTPStatus(code: code), headers: ["Content-Type": mediaType ?? "application/json"],
                body: value.serializedBytes()))
    }

    private static func text(_ code: Int, _ message: String) -> PreparedResponse {
        PreparedResponse(HTTPResponse(status: HTTPStatus(code: code), text: message + "\n"))
    }
}
