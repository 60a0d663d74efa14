import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat

/// `--stateful`: the create, list, read, replace, patch and delete of a collection work on the
/// responder's ``ResourceStore``; every answer is the operation's own (status, headers, media
/// type), its body the stored resource completed from the generator and checked against the
/// response schema.
extension OpenAPIResponder {
    /// The most resources one list answer holds, whatever `limit` asks.
    public static let maximumPage = 1_000

    /// The answer of a stateful operation; nil to answer as without state (a `Prefer` header, a
    /// non-JSON answer). `parsed` is the body's value when request validation parsed it.
    /// `preference`, the request's, is empty.
    func statefulAnswer(
        _ request: HTTPServerRequest, route index: Int, pathValues: [String: String], parsed: JSONValue?,
        preference: Preference
    ) -> PreparedResponse? {
        guard store != nil, let route = statefulRoutes[index], request.headers.first(name: "Prefer") == nil
        else { return nil }
        return statefulAnswer(
            request, route, routes[index], index: index, pathValues: pathValues, parsed: parsed, preference: preference)
    }

    private func statefulAnswer(
        _ request: HTTPServerRequest, _ route: StatefulRoute, _ owner: Route, index: Int,
        pathValues: [String: String], parsed: JSONValue?, preference: Preference
    ) -> PreparedResponse? {
        guard let store else { return nil }
        let collection = route.resource
        let plain = answer(route: index, headers: request.headers, preference: preference)
        let code = plain.response.status.code
        guard (200..<300).contains(code) else { return plain }
        let shape = shape(of: plain, route: index, location: route.role == .create)
        let jsonBody = shape.jsonBody
        if !jsonBody && !plain.response.body.isEmpty { return nil }
        let key = route.key(pathValues)
        switch route.role {
        case .create:
            let body: JSONObject
            switch Self.objectBody(of: request, parsed: parsed, owner) {
            case .success(let object): body = object
            case .failure(let refusal): return refusal
            }
            for _ in 0..<3 {
                let id = newID(collection, key, store)
                var resource = body
                if let property = collection.idProperty {
                    // The id first, as a reader expects it.
                    resource = JSONObject(
                        [JSONMember(key: property, value: id.value)] + body.members.filter { $0.key != property })
                }
                let stored = route.answer?.conform(.object(resource)) ?? .object(resource)
                let encoded = stored.serializedBytes()
                do {
                    guard try store.insert(encoded: encoded, id: id.text, in: key) else { continue }
                } catch {
                    return Self.storeFull(error, owner.operation)
                }
                let location = basePath + key + "/" + id.text.percentEncoded()
                return respond(shape, encoded: jsonBody ? encoded : nil, location: location)
            }
            return Self.problem(409, "conflict", "Conflict", "No free id for a new resource of \(key)", owner.operation)
        case .list:
            return respond(shape, body: list(request, owner.operation, route, key, store))
        case .read, .replace, .patch, .delete:
            guard let id = Self.idText(pathValues[collection.idParameter], collection.idKind) else {
                return notFoundItem(owner.operation, key, pathValues[collection.idParameter] ?? "", request)
            }
            return item(request, route, collection, id, key, owner, shape, parsed, store)
        }
    }

    private func item(
        _ request: HTTPServerRequest, _ route: StatefulRoute, _ collection: ResourceModel.Collection,
        _ id: String, _ key: String, _ owner: Route, _ shape: AnswerShape, _ parsed: JSONValue?,
        _ store: ResourceStore
    ) -> PreparedResponse {
        let plain = shape.plain
        var missing: PreparedResponse { notFoundItem(owner.operation, key, id, request) }
        switch route.role {
        case .read:
            // What a create of the same schema stored is valid as it is, and sent as it is.
            if route.readsAsStored {
                guard let encoded = store.encoded(id: id, in: key) else { return missing }
                return respond(shape, encoded: encoded)
            }
            guard let stored = store.value(id: id, in: key) else { return missing }
            return respond(shape, body: route.answer?.conform(stored) ?? stored)
        case .delete:
            do {
                return try store.remove(id: id, in: key) ? plain : missing
            } catch {
                return Self.storeFull(error, owner.operation)
            }
        case .replace, .patch:
            let patch: JSONObject
            switch Self.objectBody(of: request, parsed: parsed, owner) {
            case .success(let object): patch = object
            case .failure(let refusal): return refusal
            }
            for _ in 0..<8 {
                guard let old = store.entry(id: id, in: key) else { return missing }
                var next = route.role == .patch ? MergePatch.apply(.object(patch), to: old.value) : .object(patch)
                if let property = collection.idProperty, case .object(var object) = next {
                    object[property] = old.value[property] ?? Self.idValue(id, collection.idKind)
                    next = .object(object)
                }
                let stored = route.answer?.conform(next) ?? next
                let encoded = stored.serializedBytes()
                do {
                    guard try store.replace(encoded: encoded, id: id, in: key, version: old.version) else {
                        continue
                    }
                } catch {
                    return Self.storeFull(error, owner.operation)
                }
                return respond(shape, encoded: shape.jsonBody ? encoded : nil)
            }
            return Self.problem(
                409, "conflict", "Conflict", "\(key)/\(id) kept changing while it was being patched", owner.operation)
        case .create, .list:
            return plain
        }
    }

    /// A page of the collection: `offset` (else `page`) and `limit` when the operation documents
    /// them, at most ``maximumPage`` (and the array's `maxItems`).
    private func list(
        _ request: HTTPServerRequest, _ operation: ContractOperation, _ route: StatefulRoute, _ key: String,
        _ store: ResourceStore
    ) -> JSONValue? {
        guard let shape = route.listShape else { return nil }
        let query = QueryParameters.parse(request.query ?? "")
        func parameter(_ name: String) -> ContractParameter? {
            operation.parameters.first { $0.location == .query && $0.name.lowercased() == name }
        }
        func number(_ name: String) -> Int? {
            guard let documented = parameter(name) else { return nil }
            return query.first { $0.name == documented.name }.flatMap { Int($0.value) }
                ?? documented.defaultValue?.intValue.map(Int.init)
                ?? documented.schema.defaultValue?.intValue.map(Int.init)
        }
        var size = number("limit") ?? Self.maximumPage
        if let maxItems = route.maxItems { size = min(size, maxItems) }
        size = max(0, min(size, Self.maximumPage))
        var offset = number("offset") ?? 0
        if parameter("offset") == nil, let page = number("page") {
            let first = parameter("page")?.schema.limits.minimum == 0 ? 0 : 1
            offset = max(0, page - first) * size
        }
        let (stored, total) = store.page(of: key, offset: max(0, offset), limit: size)
        let items = stored.map { route.items?.conform($0) ?? $0 }
        switch shape {
        case .array: return .array(items)
        case .property(let name):
            var base = route.answer?.base ?? [:]
            base[name] = .array(items)
            for counter in ["total", "totalCount", "total_count", "count"] where base[counter]?.intValue != nil {
                base[counter] = .int(Int64(total))
            }
            return .object(base)
        }
    }

    private func newID(
        _ collection: ResourceModel.Collection, _ key: String, _ store: ResourceStore
    ) -> (text: String, value: JSONValue) {
        switch collection.idKind {
        case .integer:
            let number = store.nextNumber(in: key)
            return (String(number), .int(number))
        case .uuid:
            let text = Identifiers.randomUUID()
            return (text, .string(text))
        case .string:
            let text = String(store.nextNumber(in: key))
            let checker = SchemaConformance(contract: contract, budget: 10_000)
            if checker.accepts(.string(text), collection.idSchema) { return (text, .string(text)) }
            let uuid = Identifiers.randomUUID()
            return (uuid, .string(uuid))
        }
    }

    /// Each route's stateful part, made once (nil for the routes without state).
    static func statefulRoutes(
        _ model: ResourceModel?, _ routes: [ContractOperation], _ contract: Contract
    ) -> [StatefulRoute?] {
        guard let model else { return routes.map { _ in nil } }
        let asStored = readsAsStored(model, contract)
        return routes.map { operation in
            guard let entry = model.roles[operation.name] else { return nil }
            return StatefulRoute(
                operation, collection: entry.collection, role: entry.role, model.collections[entry.collection],
                readsAsStored: entry.role == .read && asStored[entry.collection], in: contract)
        }
    }

    /// For each collection, whether its read answers with the schema its create stores with (and
    /// no replace or patch stores with another), so that a read sends what is stored as it is.
    static func readsAsStored(_ model: ResourceModel, _ contract: Contract) -> [Bool] {
        model.collections.indices.map { index in
            let schemas = Dictionary(
                model.roles.filter { $0.value.collection == index }.compactMap { name, entry in
                    contract.operation(named: name).map {
                        (entry.role, ResourceModel.defaultResponseSchema($0, contract))
                    }
                }, uniquingKeysWith: { first, _ in first })
            guard let read = schemas[.read], let create = schemas[.create], read != nil, read == create else {
                return false
            }
            return [ResourceModel.Role.replace, .patch].allSatisfy { schemas[$0] == nil || schemas[$0] == read }
        }
    }

    /// The store's key of an id in a path: an integer id in its canonical form.
    static func idText(_ text: String?, _ kind: ResourceModel.IDKind) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard kind == .integer else { return text }
        return Int64(text).map { String($0) }
    }

    static func idValue(_ text: String, _ kind: ResourceModel.IDKind) -> JSONValue {
        if kind == .integer, let number = Int64(text) { return .int(number) }
        return .string(text)
    }

    /// The collection's path with its parents' values, each percent-encoded (so that a value
    /// holding `/` names no other collection and the `Location` built on it is a valid URL):
    /// `/users/7/orders`.
    static func collectionKey(_ collection: ResourceModel.Collection, _ values: [String: String]) -> String {
        let segments = ResourceModel.segments(collection.path) ?? []
        return segments.map { segment in
            "/"
                + (ResourceModel.isParameter(segment)
                    ? (values[String(segment.dropFirst().dropLast())] ?? "").percentEncoded() : String(segment))
        }.joined()
    }

    enum BodyOutcome {
        case success(JSONObject)
        case failure(PreparedResponse)
    }

    /// The request's body as a JSON object (`parsed`, when validation parsed it already), or
    /// the problem+json refusing it.
    private static func objectBody(
        of request: HTTPServerRequest, parsed: JSONValue?, _ owner: Route
    ) -> BodyOutcome {
        do {
            let value = try parsed ?? JSONParser().parse(request.body)
            guard case .object(let object) = value else {
                return .failure(
                    problem(
                        422, "invalid-body", "Invalid request body",
                        "\(owner.operation.name) stores JSON objects: expected an object at $, found \(value.kind.rawValue)",
                        owner.operation))
            }
            return .success(object)
        } catch {
            return .failure(
                problem(
                    400, "invalid-body", "Invalid request body", "\(owner.operation.name): \(error)", owner.operation))
        }
    }

    private func notFoundItem(
        _ operation: ContractOperation, _ key: String, _ id: String, _ request: HTTPServerRequest
    ) -> PreparedResponse {
        if operation.responses.contains(where: { $0.status == "404" }) {
            let documented = answer(
                operation, preference: Preference(code: 404), accept: request.headers.first(name: "Accept"))
            if documented.response.status.code == 404 { return documented }
        }
        return Self.problem(
            404, "not-found", "Not found", "No resource \(key)/\(id): it was never created, or was deleted", operation)
    }

    /// The refusal of a write the store would not make: 507 past a limit, 500 when the state file
    /// could not be written.
    private static func storeFull(_ refusal: ResourceStore.Refusal, _ operation: ContractOperation) -> PreparedResponse
    {
        if case .stateFile = refusal {
            return problem(500, "state-file", "State file not written", "\(refusal); nothing was changed", operation)
        }
        return problem(
            507, "store-full", "Insufficient storage",
            "\(refusal); delete resources or reset the state (DELETE /__admin/petmock/state)", operation)
    }

    static func problem(
        _ status: Int, _ type: String, _ title: String, _ detail: String, _ operation: ContractOperation
    ) -> PreparedResponse {
        let body: JSONObject = [
            "type": .string("urn:petmock:problem:\(type)"), "title": .string(title), "status": .int(Int64(status)),
            "detail": .string(detail), "operation": .string(operation.name),
        ]
        return PreparedResponse(
            HTTPResponse(
                status: HTTPStatus(code: status), headers: ["Content-Type": "application/problem+json"],
                body: JSONValue.object(body).serializedBytes()))
    }

    /// A stateful route's plain answer as the store's answers reuse it: whether its body is
    /// JSON, and its head laid out once (with `Location` after its fields for a create), so
    /// that per answer only `Location` and `Content-Length` are written, not the whole head.
    struct AnswerShape: Sendable {
        let plain: PreparedResponse
        let jsonBody: Bool
        let head: PreparedHead?
    }

    /// The shape of `plain`: made once for the route's plain answer (no `Prefer`, no `Accept`)
    /// and kept (``statefulShapes``); made per request, with no head, for another.
    private func shape(of plain: PreparedResponse, route index: Int, location: Bool) -> AnswerShape {
        if let made = statefulShapes.withLock({ $0[index] }), made.plain === plain { return made }
        let jsonBody = plain.response.headers.first(name: "Content-Type").map(ResourceModel.isJSON) ?? false
        guard plainAnswers.withLock({ $0[index] }) === plain else {
            return AnswerShape(plain: plain, jsonBody: jsonBody, head: nil)
        }
        var headers = plain.response.headers
        headers.remove(name: "Content-Length")
        if location { headers.add(name: "Location", value: "") }
        let head = PreparedHead(
            status: plain.response.status, headers: headers, variableFields: location ? [headers.count - 1] : [])
        let made = AnswerShape(plain: plain, jsonBody: jsonBody, head: head)
        statefulShapes.withLock { $0[index] = made }
        return made
    }

    /// The operation's own answer (status, headers) with `body` in place of its own.
    private func respond(_ shape: AnswerShape, body: JSONValue?) -> PreparedResponse {
        respond(shape, encoded: body?.serializedBytes())
    }

    /// The operation's own answer (status, headers) with the JSON `encoded` in place of its body,
    /// and a `Location` field after its own when given.
    private func respond(_ shape: AnswerShape, encoded: [UInt8]?, location: String? = nil) -> PreparedResponse {
        var response = shape.plain.response
        response.headers.remove(name: "Content-Length")
        if let encoded { response.body = encoded }
        if let location { response.headers.add(name: "Location", value: location) }
        // A response of another shape than the head's is prepared whole.
        guard let head = shape.head else { return PreparedResponse(response) }
        return PreparedResponse(response, head: head)
    }
}

extension OpenAPIResponder {
    public func state(collection: String?) -> JSONValue? {
        guard let store else { return nil }
        guard let collection else {
            let summary = store.summary()
            let limits = store.limits
            return [
                "stateful": true, "mountPoint": .string(basePath),
                "collections": .array(
                    summary.collections.map { entry in
                        [
                            "collection": .string(entry.collection), "items": .int(Int64(entry.items)),
                            "bytes": .int(Int64(entry.bytes)),
                        ]
                    }),
                "items": .int(Int64(summary.items)), "bytes": .int(Int64(summary.bytes)),
                "limits": [
                    "collections": .int(Int64(limits.collections)), "items": .int(Int64(limits.items)),
                    "bytes": .int(Int64(limits.bytes)),
                ],
            ]
        }
        let (items, total) = store.page(of: collection, offset: 0, limit: Self.maximumPage)
        guard total > 0 || isCollection(collection) else { return nil }
        return ["collection": .string(collection), "total": .int(Int64(total)), "items": .array(items)]
    }

    public func resetState(collection: String?) throws(StateResetError) -> Bool {
        guard let store else { return false }
        guard let collection else { return try store.reset() }
        return try store.reset(collection: collection) || isCollection(collection)
    }

    /// Whether a path is one of the document's collections (with its parents' values).
    private func isCollection(_ path: String) -> Bool {
        guard let resources, let parts = ResourceModel.segments(path) else { return false }
        return resources.collections.contains { collection in
            PathTemplate(document: collection.path).match(parts: parts.map { Substring($0) }) != nil
        }
    }
}
