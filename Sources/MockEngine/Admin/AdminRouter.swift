import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat

/// The `/__admin` HTTP API over ``Admin``: WireMock's routes and JSON shapes, plus
/// `/__admin/petmock/...` for variants.
package struct AdminRouter: Sendable {
    static let prefix = "/__admin"

    let admin: Admin
    let access: AdminAccess
    let version: String

    package init(admin: Admin, access: AdminAccess, version: String) {
        self.admin = admin
        self.access = access
        self.version = version
    }

    /// Whether a path belongs to the admin API.
    /// Compared on UTF-8 bytes in constant time: every request asks (`count` on a Substring would
    /// walk the whole path by Character).
    static func owns(_ path: Substring) -> Bool {
        let bytes = path.utf8
        guard bytes.starts(with: prefix.utf8) else { return false }
        let rest = bytes.dropFirst(prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    /// The reply to an admin request (one ``owns(_:)`` accepts).
    func reply(to request: HTTPServerRequest) -> HTTPReply {
        .response(response(to: request))
    }

    /// The response to an admin request. `POST /__admin/shutdown` begins the shutdown here:
    /// the server only stops taking work on its loops' next turn, so the reply still goes out.
    func response(to request: HTTPServerRequest) -> HTTPResponse {
        if request.method == .get, let page = Dashboard.response(for: request.path),
            access.isPublicPage(request) || access.refusal(for: request) == nil
        {
            return page
        }
        if let refusal = access.refusal(for: request) {
            var response = Self.json(AdminJSON.errors(refusal.message), status: refusal.status)
            if refusal.status == 401 { response.headers.add(name: "WWW-Authenticate", value: "Bearer") }
            return response
        }
        let path = request.path.dropFirst(Self.prefix.count)
        let segments = path.split(separator: "/").map { $0.removingPercentEncoding() ?? String($0) }
        let query = request.query.map { QueryParameters.parse($0) } ?? []
        let response = route(request.method, segments, query: query, body: request.body, headers: request.headers)
        if request.method == .post && segments == ["shutdown"] { admin.shutdown() }
        return response
    }

    private func route(
        _ method: HTTPMethod, _ segments: [String], query: [(name: String, value: String)], body: [UInt8],
        headers: HTTPHeaders
    ) -> HTTPResponse {
        let route = Route(method: method, segments: segments)
        if route.is(.get, "health") { return health() }
        if route.is(.get, "version") { return versionResponse(headers) }
        if segments.first == "settings", let response = settingsResponse(route, body: body) { return response }
        if segments.first == "files", let response = filesResponse(route, body: body) { return response }
        if route.is(.post, "shutdown") { return Self.json(["message": "Shutting down"]) }
        if route.is(.post, "reset") { return perform { () throws(AdminError) in try admin.reset() } }
        if segments.first == "mappings" { return mappings(route, query: query, body: body) }
        if segments.first == "recordings" { return recordings(method, segments, body: body) }
        if segments.first == "requests" || segments.first == "near-misses" {
            return requests(route, query: query, body: body)
        }
        if route.is(.get, "scenarios") {
            let mappings = Dictionary(admin.mappings().map { ($0.id, $0) }) { first, _ in first }
            return Self.json([
                "scenarios": .array(admin.scenarios().map { AdminJSON.scenario($0, mappings: mappings) })
            ])
        }
        if route.is(.post, "scenarios", "reset") {
            admin.resetScenarios()
            return Self.json([:])
        }
        if let name = route.capture(.put, "scenarios", nil, "state") { return setScenarioState(name, body) }
        if route.is(.get, "petmock", "variant") {
            return Self.json(["variant": admin.variant.map { .string($0.description) } ?? .null])
        }
        if route.is(.put, "petmock", "variant") || route.is(.post, "petmock", "variant") { return setVariant(body) }
        if route.is(.delete, "petmock", "variant") {
            try? admin.setVariant(nil)
            return Self.json(["variant": .null])
        }
        if route.is(.get, "petmock", "variants") { return Self.json(admin.variants().json) }
        if route.is(.get, "petmock", "problems") {
            return Self.json(["problems": .array(admin.loadProblems().map(AdminJSON.problem))])
        }
        if route.is(.get, "petmock", "operations") {
            return Self.json(["operations": .array(admin.documentOperations().map(AdminJSON.operation))])
        }
        if route.is(.get, "petmock", "sources") {
            let sources = admin.mappingSources().map { entry -> JSONValue in
                [
                    "id": .string(entry.id), "source": .string(entry.source),
                    "file": entry.file.map(JSONValue.string) ?? .null,
                ]
            }
            return Self.json(["mappings": .array(sources)])
        }
        return notFound(route)
    }

    private func notFound(_ route: Route) -> HTTPResponse {
        Self.notFound("No admin route \(route.method) \(Self.prefix)/\(route.segments.joined(separator: "/"))")
    }

    private func mappings(_ route: Route, query: [(name: String, value: String)], body: [UInt8]) -> HTTPResponse {
        if route.is(.get, "mappings") { return listMappings(query) }
        if route.is(.post, "mappings") { return createMapping(body) }
        if route.is(.delete, "mappings") {
            admin.removeAllMappings()
            return Self.json([:])
        }
        if route.is(.post, "mappings", "remove") { return removeMappingLike(body) }
        if route.is(.get, "mappings", "unmatched") { return unmatchedMappings(remove: false) }
        if route.is(.delete, "mappings", "unmatched") { return unmatchedMappings(remove: true) }
        if route.is(.post, "mappings", "import") { return importMappings(body) }
        if route.is(.post, "mappings", "find-by-metadata") { return byMetadata(body, remove: false) }
        if route.is(.post, "mappings", "remove-by-metadata") { return byMetadata(body, remove: true) }
        if route.is(.post, "mappings", "reset") {
            return perform { () throws(AdminError) in try admin.resetMappings() }
        }
        if route.is(.post, "mappings", "save") {
            do {
                let paths = try admin.saveMappings()
                return Self.json(["saved": .array(paths.map(JSONValue.string))])
            } catch {
                return Self.failure(error)
            }
        }
        if let id = route.capture(.get, "mappings", nil) {
            guard let mapping = admin.mapping(id: id) else { return Self.failure(Self.noMapping(id)) }
            return Self.json(mapping.json)
        }
        if let id = route.capture(.put, "mappings", nil) { return updateMapping(id, body) }
        if let id = route.capture(.delete, "mappings", nil) {
            guard admin.mapping(id: id) != nil else { return Self.failure(Self.noMapping(id)) }
            return perform { () throws(AdminError) in try admin.removeMapping(id: id) }
        }
        return notFound(route)
    }

    private func requests(_ route: Route, query: [(name: String, value: String)], body: [UInt8]) -> HTTPResponse {
        if route.is(.get, "requests") { return listRequests(query) }
        if route.is(.delete, "requests") || route.is(.post, "requests", "reset") {
            admin.clearRequests()
            return Self.json([:])
        }
        if route.is(.post, "requests", "remove") { return removeRequests(body, byMetadata: false) }
        if route.is(.post, "requests", "remove-by-metadata") { return removeRequests(body, byMetadata: true) }
        if route.is(.post, "requests", "count") { return findRequests(body, count: true) }
        if route.is(.post, "requests", "find") { return findRequests(body, count: false) }
        if route.is(.get, "requests", "unmatched") {
            return Self.json(
                ["requests": .array(admin.unmatchedRequests().map(AdminJSON.request)), "requestJournalDisabled": false])
        }
        if route.is(.get, "requests", "unmatched", "near-misses") {
            let misses = admin.nearMissesOfUnmatchedRequests().map {
                AdminJSON.nearMiss($0.nearMiss, request: $0.request)
            }
            return Self.json(["nearMisses": .array(misses)])
        }
        if route.is(.post, "near-misses", "request") { return nearMisses(body) }
        if route.is(.post, "near-misses", "request-pattern") { return nearMissesOfPattern(body) }
        if let id = route.capture(.get, "requests", nil) {
            guard let request = admin.request(id: id) else { return Self.notFound("No request with id '\(id)'") }
            return Self.json(AdminJSON.serveEvent(request))
        }
        if let id = route.capture(.delete, "requests", nil) {
            guard admin.removeRequest(id: id) else { return Self.notFound("No request with id '\(id)'") }
            return Self.json([:])
        }
        return notFound(route)
    }

    private func health() -> HTTPResponse {
        let now = admin.store.clock.wallMilliseconds
        return Self.json([
            "status": "healthy", "message": "petmock is ok", "version": .string(version),
            "uptimeInSeconds": .int((now - admin.startedAt) / 1000),
            "timestamp": .string(Timestamp.iso8601(milliseconds: now)),
            "mappings": .int(Int64(admin.mappings().count)),
        ])
    }

    /// `GET /__admin/mappings?offset=N&limit=N`: a value that is not a whole number of 0 or
    /// more, or another parameter, is a 400 naming it (never a page silently widened).
    private func listMappings(_ query: [(name: String, value: String)]) -> HTTPResponse {
        var paging: [String: Int] = [:]
        for (name, value) in query {
            guard name == "offset" || name == "limit" else {
                return Self.json(
                    AdminJSON.errors("unknown parameter '\(name)': expected offset or limit"), status: 400)
            }
            guard let number = Int(value), number >= 0 else {
                return Self.json(
                    AdminJSON.errors("\(name): expected a whole number of 0 or more, found '\(value)'"), status: 400)
            }
            paging[name] = number
        }
        let all = admin.mappings()
        let offset = paging["offset"] ?? 0
        let limit = paging["limit"] ?? all.count
        let page = all.dropFirst(offset).prefix(limit)
        return Self.json(["mappings": .array(page.map(\.json)), "meta": ["total": .int(Int64(all.count))]])
    }

    private func createMapping(_ body: [UInt8]) -> HTTPResponse {
        withMapping(body) { mapping throws(AdminError) in Self.json(try admin.addMapping(mapping).json, status: 201) }
    }

    private func updateMapping(_ id: String, _ body: [UInt8]) -> HTTPResponse {
        withMapping(body) { mapping throws(AdminError) in Self.json(try admin.updateMapping(id: id, to: mapping).json) }
    }

    /// Parses a request body as one mapping and hands it to `body`; a bad body or a refused
    /// mapping becomes the admin API's error response.
    private func withMapping(
        _ bytes: [UInt8], _ body: (StubMapping) throws(AdminError) -> HTTPResponse
    ) -> HTTPResponse {
        switch Self.parse(bytes) {
        case .failure(let failure): return failure.response
        case .success(let json):
            do throws(AdminError) {
                let mapping: StubMapping
                do {
                    mapping = try StubMapping(json: json)
                } catch {
                    throw Admin.adminError(error)
                }
                return try body(mapping)
            } catch {
                return Self.failure(error)
            }
        }
    }

    private func listRequests(_ query: [(name: String, value: String)]) -> HTTPResponse {
        var all = admin.requests()
        // WireMock's filters: `unmatched=true`, `matchingStub=ID`, `since=ISO-8601` and `limit`;
        // a value that cannot be read is a 400, never a filter left out.
        let filters: RequestFilters
        switch RequestFilters.read(query) {
        case .success(let read): filters = read
        case .failure(let failure): return Self.json(AdminJSON.errors(failure.message), status: 400)
        }
        if filters.unmatchedOnly { all = all.filter { !$0.wasMatched } }
        if let id = filters.matchingStub { all = all.filter { $0.matchedMapping?.id == id } }
        if let since = filters.sinceMilliseconds { all = all.filter { $0.loggedDate > since } }
        let limit = filters.limit ?? all.count
        return Self.json([
            "requests": .array(all.prefix(limit).map(AdminJSON.serveEvent)),
            "meta": ["total": .int(Int64(all.count))], "requestJournalDisabled": .bool(admin.journalCapacity == 0),
        ])
    }

    private func findRequests(_ body: [UInt8], count: Bool) -> HTTPResponse {
        switch Self.requestPattern(body) {
        case .failure(let failure): return failure.response
        case .success(let pattern):
            do {
                let found = try admin.findRequests(matching: pattern)
                if count { return Self.json(["count": .int(Int64(found.count))]) }
                return Self.json(["requests": .array(found.map(AdminJSON.request))])
            } catch {
                return Self.failure(error)
            }
        }
    }

    private func nearMisses(_ body: [UInt8]) -> HTTPResponse {
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            guard let url = json["url"]?.stringValue else {
                return Self.json(AdminJSON.errors("Expected a request with a 'url'"), status: 422)
            }
            var headers = HTTPHeaders()
            if case .object(let object)? = json["headers"] {
                for member in object.members {
                    for value in member.value.arrayValue ?? [member.value] {
                        headers.add(name: member.key, value: value.stringValue ?? value.serialized())
                    }
                }
            }
            let request = LoggedRequest(
                method: HTTPMethod(rawValue: json["method"]?.stringValue ?? "GET"), url: url, headers: headers,
                body: Array((json["body"]?.stringValue ?? "").utf8))
            let misses = admin.nearMisses(for: request).map { AdminJSON.nearMiss($0, request: request) }
            return Self.json(["nearMisses": .array(misses)])
        }
    }

    private func setScenarioState(_ name: String, _ body: [UInt8]) -> HTTPResponse {
        // An empty body resets the scenario (WireMock's rule).
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return perform { () throws(AdminError) in try admin.setScenarioState(nil, forScenario: name) }
        }
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            guard let state = json["state"]?.stringValue else {
                return Self.json(AdminJSON.errors("Expected {\"state\": \"NAME\"} or an empty body"), status: 422)
            }
            return perform { () throws(AdminError) in try admin.setScenarioState(state, forScenario: name) }
        }
    }

    private func setVariant(_ body: [UInt8]) -> HTTPResponse {
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            let name: String?
            switch json["variant"] ?? json {
            case .string(let text): name = text
            case .null: name = nil
            default:
                return Self.json(
                    AdminJSON.errors("Expected {\"variant\": \"NAME\"} or {\"variant\": null}"), status: 400)
            }
            do {
                try admin.setVariant(name)
                return Self.json(["variant": admin.variant.map { .string($0.description) } ?? .null])
            } catch {
                var errors = AdminJSON.errors(error.description)
                if case .object(var object) = errors {
                    if let knownFields = error.knownFields {
                        object["knownFields"] = .array(knownFields.map(JSONValue.string))
                    } else {
                        object["knownVariants"] = .array(error.knownVariants.map(JSONValue.string))
                        object["generatedVariants"] = .array(Variant.generatedForms.map { .string($0.form) })
                    }
                    errors = .object(object)
                }
                return Self.json(errors, status: 400)
            }
        }
    }

    private func perform<T>(_ action: () throws(AdminError) -> T) -> HTTPResponse {
        do {
            _ = try action()
            return Self.json([:])
        } catch {
            return Self.failure(error)
        }
    }

    /// Why no mapping has `id`: it is not one (not a UUID, a 400 as in WireMock), or none has it.
    /// petmock serves mappings whose ids are not UUIDs too; those are found first.
    static func noMapping(_ id: String) -> AdminError {
        Identifiers.isUUID(id) ? .mappingNotFound(id) : .invalidMappingID(id)
    }

    static func failure(_ error: AdminError) -> HTTPResponse {
        switch error {
        case .mappingNotFound, .scenarioNotFound: return notFound(error.description)
        case .duplicateMappingID, .unknownScenarioState: return json(AdminJSON.error(error), status: 422)
        case .invalidMappingID: return json(AdminJSON.error(error), status: 400)
        case .invalidMapping(let problems):
            return json(AdminJSON.errors(error.description, problems: problems), status: 422)
        case .noStubFolder: return json(AdminJSON.errors(error.description), status: 409)
        case .saveFailed, .reloadFailed: return json(AdminJSON.errors(error.description), status: 500)
        case .recording(let recording): return json(AdminJSON.errors(error.description), status: recording.httpStatus)
        case .invalidSettings(let problems):
            return json(AdminJSON.errors(error.description, problems: problems), status: 422)
        case .noFilesFolder: return json(AdminJSON.errors(error.description), status: 409)
        case .invalidBodyFileName: return json(AdminJSON.errors(error.description), status: 400)
        case .bodyFileOutsideFolder: return json(AdminJSON.errors(error.description), status: 403)
        case .bodyFileNotFound: return notFound(error.description)
        case .bodyFilesTooLarge, .bodyFileFailed: return json(AdminJSON.errors(error.description), status: 500)
        }
    }

    static func notFound(_ message: String) -> HTTPResponse {
        json(AdminJSON.errors(message), status: 404)
    }

    static func parse(_ body: [UInt8]) -> Result<JSONValue, ParseFailure> {
        do {
            return .success(try JSONValue(parsing: body))
        } catch {
            return .failure(
                ParseFailure(response: json(AdminJSON.errors("The body is not JSON: \(error)"), status: 400)))
        }
    }

    struct ParseFailure: Error {
        let response: HTTPResponse
    }

    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"],
            body: value.serializedBytes(.pretty))
    }
}

/// A request's method and path segments, matched against route shapes.
struct Route {
    let method: HTTPMethod
    let segments: [String]

    /// Whether the route is exactly `method` and these segments.
    func `is`(_ method: HTTPMethod, _ expected: String...) -> Bool {
        self.method == method && segments == expected
    }

    /// The segment standing where the shape has nil, when the rest matches.
    func capture(_ method: HTTPMethod, _ shape: String?...) -> String? {
        guard self.method == method, segments.count == shape.count else { return nil }
        var captured: String?
        for (segment, expected) in zip(segments, shape) {
            if let expected {
                if segment != expected { return nil }
            } else {
                captured = segment
            }
        }
        return captured
    }
}
