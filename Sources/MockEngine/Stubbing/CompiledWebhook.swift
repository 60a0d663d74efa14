import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform
import StubFormat
import Templating

/// A stub's webhook ready to send: its templates compiled at load (url, method, header
/// values, and a `body` or `jsonBody`, as WireMock templates them), rendered per request with
/// the triggering request as `originalRequest` and the parameters object as `parameters`. A
/// `base64Body` or `bodyFileName` body is read at load (the file through the body file
/// resolver, inside `__files/` only) and sent as it is.
struct CompiledWebhook: Sendable {
    /// A part that is text or a template of it.
    enum Part: Sendable {
        case text(String)
        case template(Template)

        init(_ text: String) throws(TemplateError) {
            self = Template.mayContainTemplate(text) ? .template(try Template(text)) : .text(text)
        }

        func render(
            _ context: TemplateValue, clock: TimeSource, state: (any TemplateStateSource)? = nil
        ) throws(TemplateError) -> String {
            switch self {
            case .text(let text): text
            case .template(let template): try template.render(context, clock: clock, state: state)
            }
        }
    }

    enum Body: Sendable {
        case none
        case bytes([UInt8])
        case template(Template)
    }

    let definition: WebhookDefinition
    let method: Part
    let url: Part
    let headers: [(name: String, value: Part)]
    let body: Body
    /// The wait before the call, drawn per call (``StubDelay``, as a stub's own delay).
    let delay: StubDelay
    /// What templates read as `parameters`: the whole parameters object.
    let parameters: JSONValue

    /// Compiles the mapping's webhooks; nil, with problems, when any does not compile.
    static func compile(
        _ mapping: StubMapping, filesRoot: String?, file: String, basePath: JSONPath,
        problems: inout [StubProblem]
    ) -> [CompiledWebhook]? {
        var compiled: [CompiledWebhook] = []
        var failed = false
        // A webhook whose listener does not fire once the answer is complete is never sent.
        for (index, definition) in mapping.webhooks.enumerated() where definition.isSent {
            let path = basePath.appending(key: "serveEventListeners").appending(index: index)
                .appending(key: "parameters")
            if let webhook = compile(definition, filesRoot: filesRoot, file: file, path: path, problems: &problems) {
                compiled.append(webhook)
            } else {
                failed = true
            }
        }
        return failed ? nil : compiled
    }

    private static func compile(
        _ definition: WebhookDefinition, filesRoot: String?, file: String, path: JSONPath,
        problems: inout [StubProblem]
    ) -> CompiledWebhook? {
        func failed(_ key: String, _ error: TemplateError) -> CompiledWebhook? {
            problems.append(
                StubProblem(
                    .error, .invalidPattern, file: file, path: path.appending(key: key).description,
                    detail: "webhook \(key) template: \(error.description)"))
            return nil
        }
        if !Template.mayContainTemplate(definition.url), let problem = AbsoluteHTTPURL.problem(definition.url) {
            problems.append(
                StubProblem(
                    .error, .invalidValue, file: file, path: path.appending(key: "url").description,
                    expected: "an absolute http:// or https:// URL", found: problem))
            return nil
        }
        let method: Part
        let url: Part
        var headers: [(name: String, value: Part)] = []
        do {
            method = try Part(definition.method)
        } catch {
            return failed("method", error)
        }
        do {
            url = try Part(definition.url)
        } catch {
            return failed("url", error)
        }
        for field in definition.headers {
            do {
                headers.append((field.name, try Part(field.value)))
            } catch {
                return failed("headers", error)
            }
        }
        let body: Body
        switch definition.body {
        case .none: body = .none
        case .text(let text):
            do {
                body = .template(try Template(text))
            } catch {
                return failed("body", error)
            }
        case .json(let value):
            do {
                body = .template(try Template(value.serialized()))
            } catch {
                return failed("jsonBody", error)
            }
        case .bytes, .file:
            let key = definition.body.isFile ? "bodyFileName" : "base64Body"
            switch definition.body.contents(
                filesRoot: filesRoot, file: file, path: path.appending(key: key).description)
            {
            case .success(let bytes): body = .bytes(bytes)
            case .failure(let problem):
                problems.append(problem)
                return nil
            }
        }
        return CompiledWebhook(
            definition: definition, method: method, url: url, headers: headers, body: body,
            delay: StubDelay(fixedMilliseconds: 0, distribution: definition.delay),
            parameters: .object(definition.parameters))
    }

    /// The call for one triggering request, or why there is none: a template that failed, or
    /// a URL or method that rendered to something petmock does not send.
    func render(
        _ request: HTTPServerRequest, stub: CompiledStub, timeout: Duration, clock: TimeSource
    ) -> Result<HTTPClientRequest, WebhookFailure> {
        // What costs to work out (the client's address, the decoded query, the base URL) only
        // if a template reads it.
        let model = TemplateRequest(
            method: request.method.rawValue, url: String(request.head.originForm), headers: request.headers,
            body: request.body, baseURL: nil,
            pathParameters: stub.usesPathTemplate ? stub.pathParameters(MatchableRequest(request)) : [:],
            clientIP: { request.remoteAddress.host }, queryParameters: { MatchableRequest(request).queryParameters },
            pathTemplated: stub.usesPathTemplate, secure: request.isSecure)
        let context = TemplateValue.object([("originalRequest", .node(model)), ("parameters", .json(parameters))])
        let methodText: String
        let urlText: String
        var fields = HTTPHeaders()
        var bytes: [UInt8]?
        do {
            urlText = try url.render(context, clock: clock)
            methodText = try method.render(context, clock: clock)
            for header in headers {
                fields.add(name: header.name, value: try header.value.render(context, clock: clock))
            }
            switch body {
            case .none: bytes = nil
            case .bytes(let data): bytes = data
            case .template(let template): bytes = try template.renderBytes(context, clock: clock)
            }
        } catch {
            return .failure(WebhookFailure(url: definition.url, message: "template: \(error.description)"))
        }
        // A URL with no template was checked when the stub loaded.
        if case .template = url, let problem = AbsoluteHTTPURL.problem(urlText) {
            return .failure(
                WebhookFailure(
                    url: urlText, message: "the url rendered \(problem): expected an absolute http:// or https:// URL"))
        }
        let name = methodText.uppercased()
        guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenCharacter) else {
            return .failure(
                WebhookFailure(
                    url: urlText, message: "the method rendered '\(methodText.prefix(40))', not an HTTP method"))
        }
        for field in fields where field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            return .failure(
                WebhookFailure(url: urlText, message: "header '\(field.name)' rendered a value with a line break"))
        }
        let method = HTTPMethod(rawValue: name)
        // As WireMock: a body only with the methods that carry one (POST, PUT, PATCH, QUERY).
        let sendsBody = method == .post || method == .put || method == .patch || name == "QUERY"
        return .success(
            HTTPClientRequest(
                method: method, url: urlText, headers: fields, body: sendsBody ? bytes : nil, timeout: timeout))
    }
}

/// Why a webhook was not sent.
struct WebhookFailure: Error, Sendable {
    var url: String
    var message: String
}

extension ResponseBody {
    fileprivate var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}
