import HTTPCore
import HTTPServerKit
import JSONKit
import Platform
import StubFormat
import Templating

/// A stub's response as templates (`transformers: ["response-template"]`, or every stub with
/// global templating): its status message, header values and body compiled once at load,
/// rendered per request into a ``ServedResponse``.
struct ResponseTemplate: Sendable {
    enum Body: Sendable {
        /// Bytes served as they are (binary bodies, and files that are not UTF-8).
        case fixed([UInt8])
        case template(Template)
        /// A `bodyFileName` with a mustache: the name is rendered, then the file under
        /// `__files/` is read and rendered, per request.
        case file(name: Template, filesRoot: String?)
    }

    let statusMessage: Template?
    let headers: [(name: String, value: Template)]
    let body: Body
    /// `transformerParameters`, as templates read them (`parameters.name`).
    let parameters: JSONObject

    /// `transformerParameters.disableBodyFileTemplating`: a body file is served as it is
    /// (its name is still rendered).
    var bodyFileTemplatingDisabled: Bool { parameters["disableBodyFileTemplating"] == .bool(true) }

    /// Compiles the mapping's templates, with problems at their JSON paths; nil when one does
    /// not compile. `body` is the body read at load (nil for a templated `bodyFileName`).
    static func compile(
        _ mapping: StubMapping, body: [UInt8]?, filesRoot: String?, file: String, basePath: JSONPath,
        problems: inout [StubProblem]
    ) -> ResponseTemplate? {
        let response = mapping.response
        let responsePath = basePath.appending(key: "response")
        var failed = false
        func template(_ text: String, at path: JSONPath) -> Template? {
            do {
                return try Template(text)
            } catch {
                failed = true
                problems.append(
                    StubProblem(
                        .error, .invalidPattern, file: file, path: path.description,
                        detail: "response template: \(error.description)"))
                return nil
            }
        }
        let statusMessage = response.statusMessage.flatMap {
            template($0, at: responsePath.appending(key: "statusMessage"))
        }
        var headers: [(name: String, value: Template)] = []
        for field in response.headers {
            if let value = template(field.value, at: responsePath.appending(key: "headers").appending(key: field.name))
            {
                headers.append((field.name, value))
            }
        }
        let compiledBody: Body
        switch response.body {
        case .file(let name) where body == nil:
            guard let nameTemplate = template(name, at: responsePath.appending(key: "bodyFileName")) else { return nil }
            compiledBody = .file(name: nameTemplate, filesRoot: filesRoot)
        case .bytes(let bytes):
            compiledBody = .fixed(bytes)
        case .file where response.transformerParameters?["disableBodyFileTemplating"] == .bool(true):
            compiledBody = .fixed(body ?? [])
        default:
            let bytes = body ?? []
            guard let text = String(validating: bytes, as: UTF8.self) else {
                compiledBody = .fixed(bytes)
                break
            }
            let field: String
            switch response.body {
            case .json: field = "jsonBody"
            case .file: field = "bodyFileName"
            default: field = "body"
            }
            guard let bodyTemplate = template(text, at: responsePath.appending(key: field)) else { return nil }
            compiledBody = .template(bodyTemplate)
        }
        guard !failed else { return nil }
        let parameters = response.transformerParameters ?? JSONObject()
        return ResponseTemplate(
            statusMessage: statusMessage, headers: headers, body: compiledBody, parameters: parameters)
    }

    /// Why a render gave no response: the text of the 500 sent instead.
    struct Failure: Error {
        let message: String
    }

    /// Renders the response for one request.
    func render(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, stub: CompiledStub
    ) -> Result<ServedResponse, Failure> {
        let host = request.headers["Host"] ?? "localhost"
        let model = TemplateRequest(
            method: request.method.rawValue, url: String(request.head.originForm), headers: request.headers,
            body: request.body, baseURL: "http://" + host, pathParameters: stub.pathParameters(matchable),
            clientIP: request.remoteAddress.host, queryParameters: matchable.queryParameters,
            pathTemplated: stub.usesPathTemplate)
        let context = TemplateValue.object([("request", .node(model)), ("parameters", .json(.object(parameters)))])
        var mapping = stub.mapping
        do {
            if let statusMessage { mapping.response.statusMessage = try statusMessage.render(context) }
            var rendered = HTTPHeaders()
            for header in headers { rendered.add(name: header.name, value: try header.value.render(context)) }
            mapping.response.headers = rendered
            let bytes: [UInt8]
            switch body {
            case .fixed(let fixed): bytes = fixed
            case .template(let template): bytes = Array(try template.render(context).utf8)
            case .file(let nameTemplate, let filesRoot):
                let name = try nameTemplate.render(context)
                mapping.response.body = .file(name)
                switch Self.readFile(name, filesRoot: filesRoot) {
                case .success(let content):
                    if !bodyFileTemplatingDisabled, let text = String(validating: content, as: UTF8.self),
                        Template.mayContainTemplate(text)
                    {
                        bytes = Array(try Template(text).render(context).utf8)
                    } else {
                        bytes = content
                    }
                case .failure(let failure): return .failure(failure)
                }
            }
            if let message = mapping.response.statusMessage,
                message.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 })
            {
                return .failure(Failure(message: "the rendered statusMessage holds control characters"))
            }
            for field in mapping.response.headers
            where field.value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                return .failure(
                    Failure(message: "the rendered value of the header '\(field.name)' holds control characters"))
            }
            // The gzip form is made only for a client that can take it: this answer serves once.
            let compress = request.headers.containsToken("gzip", inHeader: "Accept-Encoding")
            return .success(StubCompiler.prepare(mapping, body: bytes, compress: compress))
        } catch {
            return .failure(Failure(message: "the response template failed: \(error.description)"))
        }
    }

    /// Reads a rendered `bodyFileName`: inside `__files/` by the same rule as at load.
    private static func readFile(_ name: String, filesRoot: String?) -> Result<[UInt8], Failure> {
        guard let filesRoot else {
            return .failure(Failure(message: "bodyFileName '\(name)': the mappings come from no stub folder"))
        }
        switch BodyFileResolver(filesRoot: filesRoot).resolve(name) {
        case .success(let path):
            // Read per request on the event loop: a file over the template limit is refused from
            // its size, never read whole.
            do throws(FileSystemError) {
                return .success(try FileSystem.read(path, atMost: TemplateLimits.standard.maximumSourceLength))
            } catch  where error.isTooLarge {
                return .failure(Failure(message: "bodyFileName '\(name)': the file is too large to template"))
            } catch {
                return .failure(Failure(message: "bodyFileName '\(name)': \(error.reason)"))
            }
        case .failure(.outsideRoot):
            return .failure(Failure(message: "bodyFileName '\(name)' leads outside __files/; it is not served"))
        case .failure(.notFound):
            return .failure(Failure(message: "bodyFileName '\(name)' does not exist in __files/"))
        case .failure(.rootMissing):
            return .failure(Failure(message: "bodyFileName '\(name)': there is no __files/ folder"))
        }
    }
}
