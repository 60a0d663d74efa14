import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform
import StubFormat
import Templating

/// A stub's response as templates (`transformers: ["response-template"]`, or every stub with
/// global templating): its status message, header values and body compiled once at load,
/// rendered per request into a ``ServedResponse``. Everything that does not depend on the
/// request is worked out at load (``ResponseShape``): per request only the templates render,
/// and the head's fixed bytes are copied around their values. A class: the engine reads a
/// stub's template per request, and a struct's copy would retain each of its members.
final class ResponseTemplate: Sendable {
    enum Body: Sendable {
        /// Bytes served as they are (binary bodies, and files that are not UTF-8).
        case fixed([UInt8])
        case template(Template)
        /// A `bodyFileName` with a mustache: the name is rendered per request, then the file
        /// under `__files/` is read and compiled once per version of it (``TemplatedBodyFiles``).
        case file(name: Template, files: TemplatedBodyFiles)
    }

    /// The status message, when it holds a mustache.
    let statusMessage: Template?
    /// The header values that hold a mustache, with their field's index in ``shape``.
    let headers: [(index: Int, value: Template)]
    let body: Body
    /// `transformerParameters`, as templates read them (`parameters.name`).
    let parameters: JSONObject
    let shape: ResponseShape
    /// Where the templates' `now` is read.
    let clock: TimeSource

    init(
        statusMessage: Template?, headers: [(index: Int, value: Template)], body: Body, parameters: JSONObject,
        shape: ResponseShape, clock: TimeSource
    ) {
        self.clock = clock
        self.statusMessage = statusMessage
        self.headers = headers
        self.body = body
        self.parameters = parameters
        self.shape = shape
    }

    /// Compiles the mapping's templates, with problems at their JSON paths; nil when one does
    /// not compile. `body` is the body read at load (nil for a templated `bodyFileName`).
    static func compile(
        _ mapping: StubMapping, body: [UInt8]?, filesRoot: String?, file: String, basePath: JSONPath,
        clock: TimeSource, problems: inout [StubProblem]
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
        let statusMessage = response.statusMessage.flatMap { message in
            Template.mayContainTemplate(message)
                ? template(message, at: responsePath.appending(key: "statusMessage")) : nil
        }
        var headers: [(index: Int, value: Template)] = []
        for (index, field) in response.headers.fields.enumerated() where Template.mayContainTemplate(field.value) {
            if let value = template(field.value, at: responsePath.appending(key: "headers").appending(key: field.name))
            {
                headers.append((index, value))
            }
        }
        // `transformerParameters.disableBodyFileTemplating`: a body file is served as it is
        // (its name is still rendered).
        let bodyFileTemplatingDisabled = response.transformerParameters?["disableBodyFileTemplating"] == .bool(true)
        let compiledBody: Body
        switch response.body {
        case .file(let name) where body == nil:
            guard let nameTemplate = template(name, at: responsePath.appending(key: "bodyFileName")) else { return nil }
            compiledBody = .file(
                name: nameTemplate,
                files: TemplatedBodyFiles(filesRoot: filesRoot, templatingDisabled: bodyFileTemplatingDisabled))
        case .bytes(let bytes):
            compiledBody = .fixed(bytes)
        case .file where bodyFileTemplatingDisabled:
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
        var fileNameTemplated = false
        if case .file = compiledBody { fileNameTemplated = true }
        let shape = ResponseShape(
            mapping, statusTemplated: statusMessage != nil, templatedFields: headers.map(\.index),
            fileNameTemplated: fileNameTemplated)
        return ResponseTemplate(
            statusMessage: statusMessage, headers: headers, body: compiledBody, parameters: parameters, shape: shape,
            clock: clock)
    }

    /// Why a render gave no response: the text of the 500 sent instead.
    struct Failure: Error {
        let message: String
    }
}
