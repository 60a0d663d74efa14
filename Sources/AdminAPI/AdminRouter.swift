import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
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
        let parts = request.path.dropFirst(Self.prefix.count).split(separator: "/")
        guard let (route, parameters) = Self.route(request.method, parts) else {
            return notFound(request.method, parts)
        }
        return route.handle(self, AdminCall(request: request, parameters: parameters))
    }

    /// The route for a method and the path's segments after `/__admin`, with the path's
    /// variables. Where two routes fit, the one with more literal segments
    /// (`/mappings/unmatched` before `/mappings/{id}`); among equals, the first declared.
    static func route(_ method: HTTPMethod, _ parts: [Substring]) -> (AdminRoute, [String: String])? {
        var chosen: (route: AdminRoute, parameters: [String: String])?
        for route in routes where route.method == method {
            guard let parameters = route.match(parts) else { continue }
            if let best = chosen, best.route.path.literalCount >= route.path.literalCount { continue }
            chosen = (route, parameters)
        }
        return chosen.map { ($0.route, $0.parameters) }
    }

    /// The 404 of a path and method no route has, naming the routes under its first segment.
    func notFound(_ method: HTTPMethod, _ parts: [Substring]) -> HTTPResponse {
        let decoded = parts.map { $0.removingPercentEncoding() ?? String($0) }
        var message = "No admin route \(method) \(Self.prefix)/\(decoded.joined(separator: "/"))"
        if let group = decoded.first {
            let siblings = Self.routes.filter { $0.declared.split(separator: "/").first.map(String.init) == group }
            if !siblings.isEmpty {
                let forms = siblings.map(\.shortForm)
                let listed =
                    forms.count == 1
                    ? forms[0] : forms.dropLast().joined(separator: ", ") + " and " + forms[forms.count - 1]
                message += "; \(group) has \(listed)"
            }
        }
        return Self.notFound(message)
    }

    /// `GET /__admin/mappings?offset=N&limit=N`: a value that is not a whole number of 0 or
    /// more, or another parameter, is a 400 naming it (never a page silently widened).
    func listMappings(_ query: [(name: String, value: String)]) -> HTTPResponse {
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

    func createMapping(_ body: [UInt8]) -> HTTPResponse {
        withMapping(body) { mapping throws(AdminError) in Self.json(try admin.addMapping(mapping).json, status: 201) }
    }

    func updateMapping(_ id: String, _ body: [UInt8]) -> HTTPResponse {
        withMapping(body) { mapping throws(AdminError) in Self.json(try admin.updateMapping(id: id, to: mapping).json) }
    }

    /// Parses a request body as one mapping and hands it to `body`; a bad body or a refused
    /// mapping becomes the admin API's error response.
    func withMapping(
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

    func listRequests(_ query: [(name: String, value: String)]) -> HTTPResponse {
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

    func findRequests(_ body: [UInt8], count: Bool) -> HTTPResponse {
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

    func nearMisses(_ body: [UInt8]) -> HTTPResponse {
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

    func setScenarioState(_ name: String, _ body: [UInt8]) -> HTTPResponse {
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

    func setVariant(_ body: [UInt8]) -> HTTPResponse {
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

    func perform<T>(_ action: () throws(AdminError) -> T) -> HTTPResponse {
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
        case .invalidMappingID, .invalidRequestID: return json(AdminJSON.error(error), status: 400)
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
        case .bodyFilesTooLarge, .bodyFileFailed, .stateNotReset:
            return json(AdminJSON.errors(error.description), status: 500)
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
