import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import Platform
import StubFormat

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
    /// Whether requests are checked against their operations (parameters, body).
    public let validatesRequests: Bool
    /// Whether requests must meet their operations' security requirements (`security`).
    public let enforcesSecurity: Bool
    /// Whether every answer with a schema is generated per request (`--dynamic`, Prism's `-d`)
    /// rather than taken from the examples, unless the request says `Prefer: dynamic=false`.
    public let dynamic: Bool
    /// Whether an answer that breaks its own response schema is a problem (`--errors`): a 500
    /// for an example, a 502 for a live API's answer through the validating proxy
    /// (``route(forwarding:)``); rather than sent with a `Petmock-Violations` field.
    public let strictResponses: Bool
    /// The violations of each example that breaks its response schema, found when the document
    /// loads, by ``exampleKey(_:_:_:_:)``.
    let exampleViolations: [String: [RequestViolation]]
    /// One line for each example that breaks its response schema, found when the document
    /// loads (`petmock serve` warns of them): the operation, status, media type, the example's
    /// name and the first violation.
    public let exampleProblems: [String]
    /// The violations of each prepared answer made from such an example, by identity, for the
    /// journal; each answer is held here too, so that no other takes its identity.
    let violationsOfAnswers = Locked<[ObjectIdentifier: (answer: PreparedResponse, violations: [RequestViolation])]>(
        [:])
    /// How many dynamic answers were made without a seed asked for: the next one's seed.
    let dynamicCount = Locked<UInt64>(0)
    /// The response checks of the validating proxy, compiled on first use per operation,
    /// status and media type.
    let responseChecks = Locked<[String: ResponseCheck]>([:])
    /// The document's operations with their path templates, the most literal segments first.
    let routes: [Route]
    /// The indices of ``routes`` by their templates' segment count: a path is tried only
    /// against the templates of as many segments as it has.
    private let routesBySegmentCount: [[Int]]
    /// Each route's operation name, `GET /items/{id}`, method and template, apart, so trying a
    /// request against the routes copies no operation.
    let routeNames: [String]
    private let routeMethods: [HTTPMethod]
    private let routeTemplates: [PathTemplate]
    let validator: RequestValidator?
    /// Each route's request checks (nil without validation).
    let routeChecks: [RequestValidator.OperationChecks?]
    /// Each route's security check; nil where anyone may call it (or security is not enforced).
    let securityChecks: [SecurityCheck?]
    /// Each route's answer to a request with no `Prefer` and no `Accept` (or `*/*`), the most
    /// common, made on first use and then served without building a key.
    let plainAnswers: Locked<[PreparedResponse?]>
    /// Each stateful route's plain answer as its store's answers reuse it, made on first use.
    let statefulShapes: Locked<[AnswerShape?]>
    // Answers are built once per (operation, status, example) and reused.
    private let cache = Locked<[String: PreparedResponse]>([:])
    /// With `stateful`, the document's collections (nil without).
    public let resources: ResourceModel?
    /// With `stateful`, what the collections hold (nil without).
    public let store: ResourceStore?
    /// Each route's callbacks, ready to send after a 2xx answer.
    let callbackPlans: [[CallbackPlan]]
    /// The callbacks that are not made, one line each with its JSON pointer: a URL that is not
    /// a runtime expression template, a request body no value meets (`petmock serve` warns of them).
    public let callbackProblems: [String]
    /// With `stateful`, the document's examples the store did not start with, each with why
    /// (no id's parent value, a limit, an id given twice).
    public let seedProblems: [String]
    /// Each route's stateful part (compiled answer checks, list shape, collection key), where
    /// the route is stateful.
    let statefulRoutes: [StatefulRoute?]
    /// The variant catalog's part from the document, once asked for.
    let variantCatalogCache = Locked<(mappings: [StubMapping], operations: [VariantCatalog.OperationFields])?>(nil)

    /// Serves `contract` under `basePath`, or under the path of its first `servers` URL when nil;
    /// with `enforcesSecurity`, a request without the credentials its operation's `security`
    /// asks for is refused with a 401 (the operation's own 401 or 403 answer when it documents
    /// one) naming the schemes in `WWW-Authenticate`, before it is validated; with
    /// `validatesRequests`, a request that breaks its operation is refused with a problem
    /// document (400, 415 or 422) listing its violations. The challenges name `challengeRealm`
    /// (none when nil: FoundationNetworking stalls on a 401 whose Basic challenge has a realm).
    /// With `stateful`, the collections' create, list, read, replace, patch and delete work on
    /// a store of their own (``ResourceStore``, within `storeLimits`, starting from the
    /// document's examples; `log` hears when a limit is reached).
    ///
    /// With `dynamic`, every answer with a schema is generated per request (its examples not
    /// used), each from the next seed of a counter (1, 2, ...), named in `Petmock-Seed`; with
    /// `strictResponses`, an example that breaks its response schema is answered with a 500
    /// problem instead of being sent with a `Petmock-Violations` field.
    public convenience init(
        contract: Contract, basePath: String? = nil, validatesRequests: Bool = true, enforcesSecurity: Bool = true,
        challengeRealm: String? = SecurityCheck.realm, stateful: Bool = false, dynamic: Bool = false,
        strictResponses: Bool = false, storeLimits: ResourceStore.Limits = ResourceStore.Limits(),
        log: (@Sendable (String) -> Void)? = nil
    ) {
        var state: (ResourceModel, ResourceStore, [String])?
        if stateful {
            let model = ResourceModel(contract: contract)
            let (seed, problems) = Self.seed(model, contract)
            let store = ResourceStore(limits: storeLimits, seed: seed, log: log)
            state = (model, store, problems + store.seedProblems)
        }
        self.init(
            contract: contract, basePath: basePath, validatesRequests: validatesRequests,
            enforcesSecurity: enforcesSecurity, challengeRealm: challengeRealm, dynamic: dynamic,
            strictResponses: strictResponses, state: state)
    }

    /// As ``init(contract:basePath:validatesRequests:enforcesSecurity:challengeRealm:stateful:dynamic:strictResponses:storeLimits:log:)``
    /// with `stateful`, the store kept in the SQLite file at `stateFile` too: loaded from it when
    /// it exists (the document's examples seed a new file only), every write committed to it
    /// before it is answered, a reset written to it. A file of another document (other
    /// collections) or a damaged one is refused.
    public convenience init(
        contract: Contract, basePath: String? = nil, validatesRequests: Bool = true, enforcesSecurity: Bool = true,
        challengeRealm: String? = SecurityCheck.realm, stateFile: String, dynamic: Bool = false,
        strictResponses: Bool = false, storeLimits: ResourceStore.Limits = ResourceStore.Limits(),
        log: (@Sendable (String) -> Void)? = nil
    ) throws(StateFileError) {
        let model = ResourceModel(contract: contract)
        let (seed, problems) = Self.seed(model, contract)
        let store = try ResourceStore(
            limits: storeLimits, seed: seed, stateFile: stateFile, collections: model.collections.map(\.path), log: log)
        self.init(
            contract: contract, basePath: basePath, validatesRequests: validatesRequests,
            enforcesSecurity: enforcesSecurity, challengeRealm: challengeRealm, dynamic: dynamic,
            strictResponses: strictResponses, state: (model, store, problems + store.seedProblems))
    }

    private init(
        contract: Contract, basePath: String?, validatesRequests: Bool, enforcesSecurity: Bool,
        challengeRealm: String?, dynamic: Bool, strictResponses: Bool,
        state: (model: ResourceModel, store: ResourceStore, problems: [String])?
    ) {
        self.validatesRequests = validatesRequests
        self.enforcesSecurity = enforcesSecurity
        self.dynamic = dynamic
        self.strictResponses = strictResponses
        let examples = Self.exampleViolations(in: contract)
        exampleViolations = examples.byKey
        exampleProblems = examples.lines
        let validator = validatesRequests ? RequestValidator(contract: contract) : nil
        self.validator = validator
        self.contract = contract
        self.basePath = Self.normalized(basePath ?? contract.servers.first.map(Self.path(ofServer:)) ?? "")
        routes = contract.operations.map { Route(template: PathTemplate(document: $0.path), operation: $0) }
            .sorted { $0.template.literalCount > $1.template.literalCount }
        var bySegmentCount: [[Int]] = []
        for (index, route) in routes.enumerated() {
            let count = route.template.segments.count
            while bySegmentCount.count <= count { bySegmentCount.append([]) }
            bySegmentCount[count].append(index)
        }
        routesBySegmentCount = bySegmentCount
        routeNames = routes.map(\.operation.name)
        routeChecks = routes.map { validator?.checks(named: $0.operation.name) }
        routeMethods = routes.map(\.operation.method)
        routeTemplates = routes.map(\.template)
        securityChecks = routes.map { route in
            let check = SecurityCheck(route.operation, in: contract, realm: challengeRealm)
            return enforcesSecurity && !check.admitsAnyone ? check : nil
        }
        plainAnswers = Locked(Array(repeating: nil, count: routes.count))
        statefulShapes = Locked(Array(repeating: nil, count: routes.count))
        let callbacks = routes.map { CallbackPlan.plans(for: $0.operation, in: contract) }
        callbackPlans = callbacks.map(\.plans)
        callbackProblems = callbacks.flatMap(\.problems)
        resources = state?.model
        store = state?.store
        seedProblems = state?.problems ?? []
        statefulRoutes = Self.statefulRoutes(resources, routes.map(\.operation), contract)
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

    public func reply(to request: HTTPServerRequest) -> FallbackAnswer? {
        switch admit(request) {
        case .outside: return nil
        case .refused(let response): return FallbackAnswer(response)
        case .answered(let answer): return answer
        case .admitted(let index, let pathValues, let parsed):
            let name = routeNames[index]
            let preference = Preference(request.headers, query: request.query.map(String.init))
            // A preference (header or query) asks for the document's answer, not the store's.
            let stateful =
                preference.isEmpty
                ? statefulAnswer(request, route: index, pathValues: pathValues, parsed: parsed, preference: preference)
                : nil
            let response = stateful ?? answer(route: index, headers: request.headers, preference: preference)
            return FallbackAnswer(
                response, operation: name, responseViolations: responseViolations(of: response),
                callbacks: callbacks(route: index, request, pathValues, response))
        }
    }

    /// The route's callbacks to send after `response`, when it is a 2xx (an operation that
    /// failed calls nobody back).
    private func callbacks(
        route index: Int, _ request: HTTPServerRequest, _ pathValues: [String: String], _ response: PreparedResponse
    ) -> [DocumentCallback] {
        let plans = callbackPlans[index]
        guard !plans.isEmpty, (200..<300).contains(response.response.status.code) else { return [] }
        return plans.map { $0.callback(for: request, pathValues: pathValues, response: response.response) }
    }

    /// The refusal of a request that meets none of its operation's security requirements: the
    /// operation's own 401 answer, else its 403, as the document answers them (example or
    /// generated body, by `Accept`), else a problem document; with a `WWW-Authenticate` field
    /// naming the unmet schemes either way.
    func unauthorized(route index: Int, _ refusal: SecurityCheck.Refusal, accept: String?) -> PreparedResponse {
        let operation = routes[index].operation
        var headers = HTTPHeaders()
        if !refusal.challenges.isEmpty { headers.add(name: "WWW-Authenticate", value: refusal.wwwAuthenticate) }
        guard
            let code = [401, 403].first(where: { code in operation.responses.contains { $0.status == String(code) } })
        else {
            return ProblemDocument.response(
                status: 401, operation: operation.name, violations: refusal.violations, headers: headers)
        }
        var documented = answer(operation, preference: Preference(code: code), accept: accept).response
        if documented.status.code != code {
            // No media type of the answer is acceptable: the first is sent all the same.
            documented = answer(operation, preference: Preference(code: code), accept: nil).response
        }
        documented.headers.remove(name: "WWW-Authenticate")
        for field in headers.fields { documented.headers.add(name: field.name, value: field.value) }
        return PreparedResponse(documented)
    }

    /// Outside the mount point: where the document is mounted, and the operations closest to
    /// the request (`GET /orders/7` is closest to `GET /api/v1/orders/{id}`: the mount point
    /// forgotten).
    public func summary(forUnanswered request: HTTPServerRequest) -> FallbackSummary? {
        let path = String(request.path)
        guard case .outside = route(request.method, path) else { return nil }
        let closest = closestRoutes(to: path, method: request.method, outside: true).map { index in
            "\(routeMethods[index].rawValue) \(basePath)\(routes[index].operation.path)"
        }
        return FallbackSummary(mountPoint: basePath, closestOperations: closest)
    }

    /// The three routes closest to `path` (below the mount point, or with `outside` the whole
    /// path), closest first: those whose template matches it (of the request's method first),
    /// then by edit distance to the operation's path (outside, to the mounted path too, the
    /// nearer counting).
    private func closestRoutes(to path: String, method: HTTPMethod, outside: Bool) -> [Int] {
        let parts = path.hasPrefix("/") ? PathTemplate.parts(of: path.dropFirst()) : []
        let method = method == .head ? HTTPMethod.get : method
        let ranks = routes.indices.map { index -> (Int, Int) in
            if !parts.isEmpty, routeTemplates[index].match(parts: parts) != nil {
                return (routeMethods[index] == method ? 0 : 1, 0)
            }
            let own = StringDistance.levenshtein(routes[index].operation.path, path)
            guard outside else { return (2, own) }
            return (2, min(own, StringDistance.levenshtein(basePath + routes[index].operation.path, path)))
        }
        return routes.indices.sorted { (ranks[$0].0, ranks[$0].1, $0) < (ranks[$1].0, ranks[$1].1, $1) }
            .prefix(3).map { $0 }
    }

    public var operations: [DocumentOperation] { operations(roles: resources) }

    /// The document's operations, each with its part in `roles`' collections (what
    /// `--stateful` makes of it): for a responder without a store, the operations a stateful
    /// one would list, with nothing seeded (`petmock variants`).
    public func operations(roles resources: ResourceModel?) -> [DocumentOperation] {
        contract.operations.map { operation in
            DocumentOperation(
                method: operation.method.rawValue, path: basePath + operation.path, name: operation.name,
                operationId: operation.operationId, summary: operation.summary, statuses: operation.documentedStatuses,
                stateful: resources?.role(of: operation.name).map {
                    DocumentOperation.Stateful(role: $0.role.rawValue, collection: basePath + $0.collection.path)
                })
        }
    }

    /// The answer to a request, its parameters and body not checked: nil outside the mount
    /// point, else the operation's answer, a 404 naming the closest operations, or a 405 with `Allow`.
    public func answer(method: HTTPMethod, path: String, headers: HTTPHeaders) -> PreparedResponse? {
        switch route(method, path) {
        case .outside: nil
        case .refused(let response): response
        case .missingPathParameters(let index, let names):
            ProblemDocument.response(
                status: 400, operation: routeNames[index], violations: names.map(Self.missingPathParameter))
        case .operation(let index, _): answer(route: index, headers: headers)
        }
    }

    enum Routing {
        case outside
        case refused(PreparedResponse)
        /// The route the path fits but for empty segments where it has path parameters
        /// (`/items//tags` for `/items/{id}/tags`), and those parameters' names.
        case missingPathParameters(Int, names: [String])
        /// The index of the route in ``routes``, and its path parameters' text as sent (still
        /// percent-encoded: the parameter checks split it before decoding each piece).
        case operation(Int, rawPathValues: [String: String])
    }

    /// A route's answer to a request's `Prefer` (or `preference`, read from the header and the
    /// query when given) and `Accept`.
    func answer(route index: Int, headers: HTTPHeaders, preference: Preference? = nil) -> PreparedResponse {
        let accept = headers.first(name: "Accept")
        let preference = preference ?? Preference(headers)
        guard preference.isEmpty, accept == nil || accept == "*/*", !dynamic else {
            return answer(routes[index].operation, preference: preference, accept: accept)
        }
        if let plain = plainAnswers.withLock({ $0[index] }) { return plain }
        let made = answer(routes[index].operation, preference: Preference(HTTPHeaders()), accept: nil)
        plainAnswers.withLock { $0[index] = made }
        return made
    }

    func route(_ method: HTTPMethod, _ path: String) -> Routing {
        let mounted =
            basePath.isEmpty
            ? path.isEmpty || path.utf8.first == UInt8(ascii: "/") : path == basePath || path.hasPrefix(basePath + "/")
        guard mounted else { return .outside }
        let below = path.utf8.dropFirst(basePath.utf8.count)
        let parts = below.first == UInt8(ascii: "/") ? PathTemplate.parts(of: Substring(below.dropFirst())) : []
        let candidates = parts.count < routesBySegmentCount.count ? routesBySegmentCount[parts.count] : []
        var others: [Int] = []
        // A HEAD is answered by the path's own HEAD operation, else by its GET.
        var getForHead: (index: Int, values: [String: String])?
        for index in candidates where !parts.isEmpty {
            guard
                let values = routeTemplates[index].match(parts: parts, decodingLiterals: true, decodingValues: false)
            else { continue }
            if routeMethods[index] == method { return .operation(index, rawPathValues: values) }
            if method == .head && routeMethods[index] == .get && getForHead == nil { getForHead = (index, values) }
            others.append(index)
        }
        if let getForHead { return .operation(getForHead.index, rawPathValues: getForHead.values) }
        if others.isEmpty {
            if let missing = missingPathParameters(method, parts, candidates) { return missing }
            return .refused(notFound(String(Substring(below))))
        }
        return .refused(notAllowed(method, others.map { routes[$0].operation }))
    }

    /// The route of `method` the path fits once its empty segments stand for path parameters,
    /// with those parameters' names; nil when there is none (or no segment is empty).
    private func missingPathParameters(_ method: HTTPMethod, _ parts: [Substring], _ candidates: [Int]) -> Routing? {
        guard parts.contains(where: \.isEmpty) else { return nil }
        // A NUL never reaches a request's path (the parser refuses control characters), so
        // a value made of it is a segment the request left empty.
        let placeholder = "\u{0}"
        let filled = parts.map { $0.isEmpty ? Substring(placeholder) : $0 }
        for index in candidates
        where routeMethods[index] == method || (method == .head && routeMethods[index] == .get) {
            guard let values = routeTemplates[index].match(parts: filled, decodingLiterals: true) else { continue }
            let names = values.filter { $0.value == placeholder }.map(\.key).sorted()
            if !names.isEmpty { return .missingPathParameters(index, names: names) }
        }
        return nil
    }

    /// The violation of a request that leaves a path parameter's segment empty.
    static func missingPathParameter(_ name: String) -> RequestViolation {
        RequestViolation(
            location: "path.\(name)", expected: "a value", found: "nothing",
            message: "the path parameter '\(name)' is missing: its segment of the path is empty")
    }

    func answer(_ operation: ContractOperation, preference: Preference, accept: String?) -> PreparedResponse {
        let status: String
        if let code = preference.code {
            // As Prism: the status's own answer, else its range's (`4XX`), else `default`,
            // answered with the status asked for; a 404 problem when none is documented.
            guard (100..<600).contains(code), let declared = operation.documentedStatus(for: code) else {
                let statuses = operation.documentedStatuses.joined(separator: ", ")
                return ProblemDocument.response(
                    status: 404,
                    detail: "\(operation.name) does not document status \(code) (nor its range or default); "
                        + "documented: \(statuses)",
                    members: ["operation": .string(operation.name)])
            }
            status = declared
        } else {
            status = operation.defaultStatus
        }
        let response = operation.responses.first { $0.status == status }
        let contents = response.map(Self.contents(of:)) ?? []
        var content: ResponseContent?
        if !contents.isEmpty {
            guard let index = ContentNegotiation.choose(contents.map(\.mediaType), accept: accept) else {
                let offered = contents.map(\.mediaType).joined(separator: ", ")
                return ProblemDocument.response(
                    status: 406, detail: "\(operation.name) \(status) offers \(offered), none of them acceptable",
                    members: [
                        "operation": .string(operation.name), "offered": .array(contents.map { .string($0.mediaType) }),
                    ])
            }
            content = contents[index]
        }
        if let name = preference.example, content?.namedExamples.contains(where: { $0.name == name }) != true {
            // Not cached: the names a client may send are endless.
            let names = content?.namedExamples.map(\.name).joined(separator: ", ") ?? ""
            return ProblemDocument.response(
                status: 404,
                detail:
                    "\(operation.name) \(status) has no example '\(name)'; examples: \(names.isEmpty ? "none" : names)",
                members: ["operation": .string(operation.name)])
        }
        if preference.dynamic ?? dynamic, preference.example == nil, content?.schema != nil {
            // Not cached: a fresh body each time, from the seed asked for or the next one.
            let seed = preference.seed ?? nextSeed()
            return build(operation, status: status, code: preference.code, content: content, example: nil, seed: seed)
        }
        let key =
            "\(operation.name) \(status) \(preference.code.map(String.init) ?? "") \(content?.mediaType ?? "") "
            + (preference.example ?? "")
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let prepared = build(
            operation, status: status, code: preference.code, content: content, example: preference.example)
        cache.withLock { $0[key] = prepared }
        return prepared
    }

    /// A response's media types in document order (the first is what a request with no
    /// `Accept`, or `*/*`, is answered with).
    static func contents(of response: ContractResponse) -> [ResponseContent] {
        guard let mediaType = response.mediaType else { return [] }
        let primary = ResponseContent(
            mediaType: mediaType, schema: response.schema, examples: response.examples,
            namedExamples: response.namedExamples)
        var contents = response.otherContent
        contents.insert(primary, at: min(max(response.mediaTypePosition, 0), contents.count))
        return contents
    }

    /// The answer of the documented `status`, sent with status `code` (one its range or
    /// `default` stands for), else the documented status (a range's first: `4XX` as 400;
    /// `default` as 200).
    private func build(
        _ operation: ContractOperation, status: String, code asked: Int? = nil, content: ResponseContent?,
        example name: String?, seed: UInt64? = nil
    ) -> PreparedResponse {
        let code = asked ?? Int(status) ?? (status.first.flatMap { Int(String($0)) }.map { $0 * 100 } ?? 200)
        var generator = BodyGenerator(contract: contract, seed: operation.name)
        var headers = HTTPHeaders()
        if let content { headers.add(name: "Content-Type", value: content.mediaType) }
        let documented = operation.responses.first { $0.status == status }?.headers ?? []
        for header in documented where !header.name.equalsIgnoringASCIICase("Content-Type") {
            guard let value = header.example ?? header.schema.map({ generator.value(for: $0) }) else { continue }
            headers.add(name: header.name, value: Self.headerText(value))
        }
        var body: JSONValue?
        var example: String?
        if let name, let chosen = content?.namedExamples.first(where: { $0.name == name }) {
            body = chosen.value
            example = name
        } else if seed == nil, let first = content?.namedExamples.first?.value ?? content?.examples.first {
            body = first
            example = ""
        } else if let schema = content?.schema, let content {
            let key = GeneratedBody.key(operation, status: status, mediaType: content.mediaType)
            switch GeneratedBody.make(for: schema, in: contract, seed: GeneratedBody.Seed(key: key, number: seed)) {
            case .success(let generated): body = generated
            case .failure(let refusal): return Self.refusal(operation, status: status, content: content, refusal)
            }
            if let seed { headers.add(name: "Petmock-Seed", value: String(seed)) }
        }
        let bytes: [UInt8]
        switch Self.serialized(body, content, in: contract) {
        case .success(let serialized): bytes = serialized
        case .failure(let reason): return Self.unserializable(operation, status: status, content: content, reason)
        }
        guard let example, let content,
            let violations = exampleViolations[Self.exampleKey(operation, status, content.mediaType, example)]
        else {
            return PreparedResponse(HTTPResponse(status: HTTPStatus(code: code), headers: headers, body: bytes))
        }
        let prepared: PreparedResponse
        if strictResponses {
            prepared = Self.invalidExample(operation, status: status, content: content, example, violations)
        } else {
            headers.add(name: "Petmock-Violations", value: Self.violationsField(violations))
            prepared = PreparedResponse(HTTPResponse(status: HTTPStatus(code: code), headers: headers, body: bytes))
        }
        violationsOfAnswers.withLock { $0[ObjectIdentifier(prepared)] = (prepared, violations) }
        return prepared
    }

    /// A header's value from a JSON example: a string as it is, anything else as JSON; line breaks
    /// and other control characters are left out, so a document cannot split the head.
    static func headerText(_ value: JSONValue) -> String {
        var text = value.serialized()
        if case .string(let string) = value { text = string }
        return String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }

    private func notFound(_ path: String) -> PreparedResponse {
        let closest = closestRoutes(to: path, method: .get, outside: false).map { routeNames[$0] }
        let mount = basePath.isEmpty ? "" : " (mounted at \(basePath))"
        let detail =
            "No operation of the document\(mount) matches \(path)"
            + (closest.isEmpty ? "" : "; closest: \(closest.joined(separator: ", "))")
        return ProblemDocument.response(
            status: 404, detail: detail, members: ["closest": .array(closest.map(JSONValue.string))])
    }

    private func notAllowed(_ method: HTTPMethod, _ operations: [ContractOperation]) -> PreparedResponse {
        let allow = operations.map(\.method.rawValue).joined(separator: ", ")
        return ProblemDocument.response(
            status: 405, detail: "\(method.rawValue) is not documented for this path; allowed: \(allow)",
            members: ["allowed": .array(operations.map { .string($0.method.rawValue) })],
            headers: ["Allow": allow])
    }
}

extension OpenAPIResponder {
    /// A documented operation and its path template; a reference, so that a request's route
    /// is passed about without copying its operation.
    final class Route: Sendable {
        let template: PathTemplate
        let operation: ContractOperation

        init(template: PathTemplate, operation: ContractOperation) {
            self.template = template
            self.operation = operation
        }
    }
}
