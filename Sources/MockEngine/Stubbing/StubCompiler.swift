import HTTPCore
import HTTPHandlerKit
import JSONKit
import Platform
import StubFormat
import Templating

/// Makes ``CompiledStub``s from mappings: compiles patterns, reads body files from
/// `__files/` (refusing any that lead outside it), and prepares each response once.
struct StubCompiler: Sendable {
    /// Bodies at least this long, of a compressible type, are also prepared gzip-compressed.
    static let gzipThreshold = 1024

    /// The `__files` folder, or nil when mappings come from no stub root.
    let filesRoot: String?
    /// Template every stub's response, not only those naming `response-template`
    /// (`--global-response-templating`).
    var globalTemplating = false
    /// The clock the compiled stubs read: date matchers' and templates' "now".
    var clock: TimeSource = .system

    /// Compiles a mapping (nil when it has errors); problems, warnings too, carry `file` and
    /// paths under `basePath`.
    func compile(
        _ mapping: StubMapping, sequence: Int, origin: StubOrigin, file: String, basePath: JSONPath = .root
    ) -> (stub: CompiledStub?, problems: [StubProblem]) {
        var patternProblems: [PatternProblem] = []
        let pattern = CompiledRequestPattern.compile(mapping.request, problems: &patternProblems, clock: clock)
        var problems = patternProblems.map { problem in
            let path = Self.rebase(problem.path, on: basePath)
            if problem.severity == .warning {
                return StubProblem(
                    .warning, .backtrackingPattern, file: file, path: path,
                    detail: "'\(problem.error.pattern)': \(problem.error.reason)")
            }
            return StubProblem(
                .error, .invalidPattern, file: file, path: path, expected: "a valid \(problem.kind)",
                found: "'\(problem.error.pattern)' (\(problem.error.reason))")
        }
        let bodyPath = basePath.appending(key: "response").appending(key: "bodyFileName").description
        let templated = templates(mapping)
        let proxyTemplate = ProxyBaseURLTemplate.compile(
            mapping, templated: mapping.response.isTemplated || globalTemplating, file: file, basePath: basePath,
            clock: clock, problems: &problems)
        if !templated, proxyTemplate == nil, mapping.response.transformerParameters != nil {
            problems.append(
                StubProblem(
                    .warning, .unknownField, file: file,
                    path: basePath.appending(key: "response").appending(key: "transformerParameters").description,
                    detail: "'transformerParameters' is ignored: the stub is not templated (add \"transformers\": "
                        + "[\"response-template\"], or template every stub: petmock serve "
                        + "--global-response-templating, globalResponseTemplating in the configuration)"))
        }
        if !templated, let field = Self.stateHelperField(mapping.response) {
            problems.append(
                StubProblem(
                    .warning, .unknownField, file: file,
                    path: basePath.appending(key: "response").appending(key: field).description,
                    detail: "the response reads the state extension's '{{state ...}}' but is not templated, so it is "
                        + "sent as written (add \"transformers\": [\"response-template\"], or serve with "
                        + "--global-response-templating, as WireMock needs templating on for the extension)"))
        }
        var body: [UInt8]?
        if templated, case .file(let name) = mapping.response.body, Template.mayContainTemplate(name) {
            body = nil  // The name is rendered per request.
        } else {
            body = readBody(mapping.response.body, file: file, path: bodyPath, problems: &problems)
            guard body != nil else { return (nil, problems) }
        }
        var template: ResponseTemplate?
        if templated && Self.mayContainTemplate(mapping.response, body: body) {
            template = ResponseTemplate.compile(
                mapping, body: body, filesRoot: filesRoot, file: file, basePath: basePath, clock: clock,
                problems: &problems)
        }
        let webhooks = CompiledWebhook.compile(
            mapping, filesRoot: filesRoot, file: file, basePath: basePath, problems: &problems)
        let stateListeners = CompiledStateListener.compile(
            mapping, file: file, basePath: basePath, problems: &problems)
        let stateMatcher = mapping.request.stateMatcher.flatMap {
            CompiledStateMatcher.compile($0, file: file, basePath: basePath, clock: clock, problems: &problems)
        }
        guard let pattern, let webhooks, let stateListeners, !problems.contains(where: \.isError) else {
            return (nil, problems)
        }
        let served = Self.prepare(mapping, body: body ?? [])
        return (
            CompiledStub(
                mapping: mapping, sequence: sequence, origin: origin, pattern: pattern, served: served,
                template: template, proxyTemplate: proxyTemplate, webhooks: webhooks, stateMatcher: stateMatcher,
                stateListeners: stateListeners),
            problems
        )
    }

    /// Whether the mapping's response is rendered per request: it asks for templating (or
    /// every stub is), and it is an answer, not a fault or a pass-through.
    func templates(_ mapping: StubMapping) -> Bool {
        (mapping.response.isTemplated || globalTemplating) && mapping.response.fault == nil
            && mapping.response.proxy == nil
    }

    /// The response field that calls the `state` helper (`body`, `jsonBody`, `headers`), if any.
    private static func stateHelperField(_ response: ResponseDefinition) -> String? {
        switch response.body {
        case .text(let text) where text.containsUTF8("{{state "): return "body"
        case .json(let value) where value.serialized().containsUTF8("{{state "): return "jsonBody"
        default: break
        }
        return response.headers.contains { $0.value.containsUTF8("{{state ") } ? "headers" : nil
    }

    /// Whether any part of the response holds a mustache; one that holds none keeps its
    /// prepared bytes.
    private static func mayContainTemplate(_ response: ResponseDefinition, body: [UInt8]?) -> Bool {
        if response.statusMessage.map(Template.mayContainTemplate) == true { return true }
        if response.headers.contains(where: { Template.mayContainTemplate($0.value) }) { return true }
        guard let body else { return true }
        if case .bytes = response.body { return false }
        var previous: UInt8 = 0
        for byte in body {
            if byte == UInt8(ascii: "{") && previous == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    private static func rebase(_ path: String, on base: JSONPath) -> String {
        base.description + path.dropFirst()
    }

    private func readBody(_ body: ResponseBody, file: String, path: String, problems: inout [StubProblem]) -> [UInt8]? {
        switch body.contents(filesRoot: filesRoot, file: file, path: path) {
        case .success(let bytes): return bytes
        case .failure(let problem):
            problems.append(problem)
            return nil
        }
    }

    /// Builds the wire form of a mapping's response; `compress: false` skips the gzip form (a
    /// response rendered for one client that does not accept gzip).
    static func prepare(_ mapping: StubMapping, body: [UInt8], compress: Bool = true) -> ServedResponse {
        let definition = mapping.response
        let delay = StubDelay(
            fixedMilliseconds: definition.fixedDelayMilliseconds ?? 0, distribution: definition.delayDistribution)
        var headers = definition.headers
        if !headers.contains(name: "Content-Type"),
            let type = ResponseDefinition.impliedContentType(of: definition.body)
        {
            headers.add(name: "Content-Type", value: type)
        }
        headers.add(name: "Matched-Stub-Id", value: mapping.id)
        if let name = mapping.name { headers.add(name: "Matched-Stub-Name", value: name) }
        if let variant = mapping.variant { headers.add(name: "Petmock-Variant", value: variant) }
        let status = HTTPStatus(code: definition.status, reasonPhrase: definition.statusMessage)
        if let fault = definition.fault {
            let httpFault: HTTPFault
            switch fault {
            case .emptyResponse: httpFault = .emptyResponse
            case .connectionResetByPeer: httpFault = .connectionReset
            case .randomDataThenClose: httpFault = .randomDataThenClose()
            case .malformedResponseChunk: httpFault = .malformedResponseChunk(status: status, headers: headers)
            }
            return .fault(httpFault, delay)
        }
        let response = HTTPResponse(
            status: status, headers: headers, body: body,
            compression: compress ? compression(for: headers, body: body) : .identity)
        let dribble = definition.chunkedDribbleDelay.map {
            HTTPDribble(chunkCount: $0.numberOfChunks, duration: .milliseconds($0.totalDuration))
        }
        return .prepared(PreparedResponse(response), delay, dribble)
    }

    /// Offer gzip for larger bodies of text-like types that are not already encoded.
    static func compression(for headers: HTTPHeaders, body: [UInt8]) -> HTTPResponse.Compression {
        guard body.count >= gzipThreshold, !headers.contains(name: "Content-Encoding") else { return .identity }
        let type = (headers["Content-Type"] ?? "").lowercased()
        let compressible =
            type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("javascript")
        return compressible ? .gzipIfAccepted : .identity
    }
}
