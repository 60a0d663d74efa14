import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat

/// An operation's callback ready to send: its URL template read once, its body generated once
/// from its request body's schema (the generator the answers use) and its required header and
/// query parameters given a value; per request, the URL is evaluated in the exchange.
struct CallbackPlan: Sendable {
    let callback: ContractCallback
    /// The operation it follows, `POST /subscribe`.
    let operation: String
    let template: RuntimeExpressionTemplate
    let headers: [(name: String, value: String)]
    let query: [(name: String, value: String)]
    /// The body and its media type; a refusal when none can be made for its schema.
    let body: Result<(bytes: [UInt8], mediaType: String)?, GenerationRefusal>

    /// The plans of `operation`'s callbacks, and a line for each callback that cannot be made
    /// (a URL that is not a runtime expression template) or has no body (a schema no value meets).
    static func plans(
        for operation: ContractOperation, in contract: Contract
    ) -> (
        plans: [CallbackPlan], problems: [String]
    ) {
        var plans: [CallbackPlan] = []
        var problems: [String] = []
        for callback in operation.callbacks {
            let label = "callback '\(callback.name)' of \(operation.name)"
            let template: RuntimeExpressionTemplate
            do {
                template = try RuntimeExpressionTemplate(callback.expression)
            } catch {
                problems.append(
                    "\(label): \(callback.pointer): expected a runtime expression (as '{$request.body#/url}'), "
                        + "found \(error.description): the callback is not made")
                continue
            }
            var generator = BodyGenerator(contract: contract, seed: "\(label) \(callback.method.rawValue)")
            func value(_ parameter: ContractParameter) -> String {
                let value =
                    parameter.examples.first ?? parameter.defaultValue ?? generator.value(for: parameter.schema)
                return OpenAPIResponder.headerText(value)
            }
            let required = callback.parameters.filter(\.required)
            let headers = required.filter { $0.location == .header }.map { ($0.name, value($0)) }
            let query = required.filter { $0.location == .query }.map { ($0.name, value($0)) }
            let body = Self.body(
                callback, in: contract, seed: "\(label) \(callback.method.rawValue) \(callback.pointer)")
            if case .failure(let refusal) = body {
                problems.append(
                    "\(label): \(callback.pointer): no request body meets its schema (\(refusal.reason)): "
                        + "the callback is not made")
            }
            plans.append(
                CallbackPlan(
                    callback: callback, operation: operation.name, template: template, headers: headers, query: query,
                    body: body))
        }
        return (plans, problems)
    }

    /// The body generated for the callback's request body: its first JSON media type (else its
    /// first), from the schema; nil when it documents none.
    private static func body(
        _ callback: ContractCallback, in contract: Contract, seed: String
    ) -> Result<(bytes: [UInt8], mediaType: String)?, GenerationRefusal> {
        guard let content = callback.requestBody?.content, !content.isEmpty else { return .success(nil) }
        let media = content.first { $0.mediaType.lowercased().contains("json") } ?? content[0]
        guard let schema = media.schema else { return .success(nil) }
        switch GeneratedBody.make(for: schema, in: contract, seed: GeneratedBody.Seed(key: seed)) {
        case .success(let value):
            if case .string(let text) = value, !media.mediaType.lowercased().contains("json") {
                return .success((Array(text.utf8), media.mediaType))
            }
            return .success((value.serializedBytes(), media.mediaType))
        case .failure(let refusal): return .failure(refusal)
        }
    }

    /// The callback to send after `response` answered `request`.
    func callback(
        for request: HTTPServerRequest, pathValues: [String: String], response: HTTPResponse
    ) -> DocumentCallback {
        DocumentCallback(
            name: callback.name, operation: operation, method: callback.method.rawValue, url: callback.expression
        ) { [self] timeout in
            make(request, pathValues: pathValues, response: response, timeout: timeout)
        }
    }

    private func make(
        _ request: HTTPServerRequest, pathValues: [String: String], response: HTTPResponse, timeout: Duration
    ) -> Result<HTTPClientRequest, DocumentCallback.Failure> {
        let bytes: (bytes: [UInt8], mediaType: String)?
        switch body {
        case .success(let made): bytes = made
        case .failure(let refusal):
            return .failure(
                DocumentCallback.Failure(
                    url: callback.expression, message: "no request body meets its schema: \(refusal.reason)"))
        }
        let host = request.headers.first(name: "Host") ?? "localhost"
        let exchange = RuntimeExchange(
            method: request.method.rawValue, url: "http://\(host)\(request.head.originForm)",
            request: RuntimeExchange.Part(
                headers: request.headers, query: request.query.map { QueryParameters.parse($0) } ?? [],
                pathValues: pathValues, body: request.body),
            statusCode: response.status.code,
            response: RuntimeExchange.Part(headers: response.headers, body: response.body))
        var url: String
        do {
            url = try template.evaluate(in: exchange)
        } catch {
            return .failure(DocumentCallback.Failure(url: callback.expression, message: error.description))
        }
        if let problem = AbsoluteHTTPURL.problem(url) {
            return .failure(
                DocumentCallback.Failure(
                    url: url, message: "the URL evaluated to \(problem): expected an absolute http:// or https:// URL"))
        }
        if !query.isEmpty {
            let pairs = query.map { "\($0.name.percentEncoded())=\($0.value.percentEncoded())" }
            url += (url.contains("?") ? "&" : "?") + pairs.joined(separator: "&")
        }
        var headers = HTTPHeaders()
        for header in self.headers { headers.add(name: header.name, value: header.value) }
        if let bytes { headers.add(name: "Content-Type", value: bytes.mediaType) }
        return .success(
            HTTPClientRequest(
                method: callback.method, url: url, headers: headers, body: bytes?.bytes, timeout: timeout))
    }
}
