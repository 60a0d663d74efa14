import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat
import Templating

extension ResponseTemplate {
    /// Renders the response for one request: the templates, then the head's fixed bytes
    /// around their values (``ResponseShape``).
    func render(
        _ request: HTTPServerRequest, _ matchable: MatchableRequest, stub: CompiledStub,
        state: (any TemplateStateSource)? = nil
    ) -> Result<ServedResponse, Failure> {
        // baseURL nil: the scheme and the `Host` field (or `localhost`), made if a template reads it.
        // The client's address is read from `matchable` (made from this request) when a template
        // asks for it: a closure capturing one object needs no allocation of its own.
        let model = TemplateRequest(
            method: request.method.rawValue, url: matchable.target, headers: request.headers,
            body: request.body, baseURL: nil, pathParameters: stub.pathParameters(matchable),
            clientIP: { [matchable] in matchable.remoteAddress?.host ?? "" },
            queryParameters: matchable.queryParameters, pathTemplated: stub.usesPathTemplate, path: matchable.path,
            secure: request.isSecure)
        let context = TemplateValue.object([("request", .node(model)), ("parameters", .json(.object(parameters)))])
        var fields = shape.fields
        var reason: String?
        var fileName: String?
        let bytes: [UInt8]
        do {
            if let statusMessage { reason = try statusMessage.render(context, clock: clock, state: state) }
            for header in headers {
                fields[header.index].value = try header.value.render(context, clock: clock, state: state)
            }
            switch body {
            case .fixed(let fixed): bytes = fixed
            case .template(let template): bytes = try template.renderBytes(context, clock: clock, state: state)
            case .file(let nameTemplate, let files):
                let name = try nameTemplate.render(context, clock: clock, state: state)
                fileName = name
                switch files.content(name) {
                case .success(.template(let template)):
                    bytes = try template.renderBytes(context, clock: clock, state: state)
                case .success(.bytes(let content)): bytes = content
                case .success(.invalid(let message)): return .failure(Failure(message: message))
                case .failure(let failure): return .failure(failure)
                }
            }
        } catch {
            return .failure(Failure(message: "the response template failed: \(error.description)"))
        }
        if shape.statusRefused || reason.map({ ResponseShape.holdsControlCharacters($0, allowingDelete: true) }) == true
        {
            return .failure(Failure(message: "the rendered statusMessage holds control characters"))
        }
        for index in shape.checkedFields where ResponseShape.holdsControlCharacters(fields[index].value) {
            return .failure(
                Failure(message: "the rendered value of the header '\(fields[index].name)' holds control characters"))
        }
        // The gzip form is made only for a client that can take it: this answer serves once.
        let compress = request.headers.containsToken("gzip", inHeader: "Accept-Encoding")
        guard let head = shape.head else {
            return .success(
                prepareWhole(
                    stub.mapping, reason: reason, fields: fields, fileName: fileName, body: bytes, compress: compress))
        }
        let status = reason.map { HTTPStatus(code: shape.status.code, reasonPhrase: $0) } ?? shape.status
        let headers = HTTPHeaders(fields)
        let response = HTTPResponse(
            status: status, headers: headers, body: bytes,
            compression: compress ? StubCompiler.compression(for: headers, body: bytes) : .identity)
        return .success(.prepared(PreparedResponse(response, head: head), shape.delay, shape.dribble))
    }

    /// The answer prepared whole from the mapping with the rendered values, for a shape with
    /// no head layout.
    func prepareWhole(
        _ mapping: StubMapping, reason: String?, fields: [HTTPHeaders.Field], fileName: String?, body: [UInt8],
        compress: Bool
    ) -> ServedResponse {
        var mapping = mapping
        if let reason { mapping.response.statusMessage = reason }
        mapping.response.headers = HTTPHeaders(Array(fields.prefix(mapping.response.headers.count)))
        if let fileName { mapping.response.body = .file(fileName) }
        return StubCompiler.prepare(mapping, body: body, compress: compress)
    }
}
