import HTTPHandlerKit
import JSONKit
import Platform
import StubFormat
import Templating

/// A templated stub's `proxyBaseUrl` holding a mustache (WireMock renders it per request when
/// the stub is templated): compiled at load, rendered per request from the same model as the
/// response templates, and used only when it renders to an `http://` or `https://` URL with a
/// host, so no request can steer petmock to `file://` or another scheme libcurl knows.
struct ProxyBaseURLTemplate: Sendable {
    let template: Template
    /// `transformerParameters`, as the template reads them (`parameters.name`).
    let parameters: JSONObject
    /// Where the template's `now` is read.
    let clock: TimeSource

    /// The template of the mapping's `proxyBaseUrl` when it has a mustache and `templated`;
    /// a problem when it has one but the stub is not templated, or it does not compile.
    static func compile(
        _ mapping: StubMapping, templated: Bool, file: String, basePath: JSONPath, clock: TimeSource,
        problems: inout [StubProblem]
    ) -> ProxyBaseURLTemplate? {
        guard let proxy = mapping.response.proxy, Template.mayContainTemplate(proxy.baseURL) else { return nil }
        let path = basePath.appending(key: "response").appending(key: "proxyBaseUrl").description
        guard templated else {
            problems.append(
                StubProblem(
                    .error, .invalidPattern, file: file, path: path,
                    expected: "an http:// or https:// base URL, or a templated stub (\"transformers\": "
                        + "[\"response-template\"], or every stub templated: petmock serve "
                        + "--global-response-templating, globalResponseTemplating in the configuration) "
                        + "to render its mustache",
                    found: "'\(proxy.baseURL)' on a stub that is not templated"))
            return nil
        }
        do {
            return ProxyBaseURLTemplate(
                template: try Template(proxy.baseURL), parameters: mapping.response.transformerParameters ?? [:],
                clock: clock)
        } catch {
            problems.append(
                StubProblem(
                    .error, .invalidPattern, file: file, path: path,
                    detail: "proxyBaseUrl template: \(error.description)"))
            return nil
        }
    }

    /// The base URL for this request, or why there is none.
    func render(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, stub: CompiledStub
    ) -> Result<String, ResponseTemplate.Failure> {
        let host = request.headers["Host"] ?? "localhost"
        let model = TemplateRequest(
            method: request.method.rawValue, url: String(request.head.originForm), headers: request.headers,
            body: request.body, baseURL: request.scheme + "://" + host, pathParameters: stub.pathParameters(matchable),
            clientIP: request.remoteAddress.host, queryParameters: matchable.queryParameters,
            pathTemplated: stub.usesPathTemplate)
        let context = TemplateValue.object([("request", .node(model)), ("parameters", .json(.object(parameters)))])
        let base: String
        do {
            base = try template.render(context, clock: clock)
        } catch {
            return .failure(ResponseTemplate.Failure(message: "proxyBaseUrl: \(error.description)"))
        }
        if let problem = Self.problem(base) {
            return .failure(ResponseTemplate.Failure(message: "the templated proxyBaseUrl rendered \(problem)"))
        }
        return .success(base)
    }

    /// Why a rendered base URL cannot be proxied to, or nil when it can (``AbsoluteHTTPURL``).
    static func problem(_ base: String) -> String? {
        AbsoluteHTTPURL.problem(base).map { $0 + ": expected an http:// or https:// URL" }
    }
}
