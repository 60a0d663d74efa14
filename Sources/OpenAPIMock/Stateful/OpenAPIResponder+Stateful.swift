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
    /// non-JSON answer).
    func statefulAnswer(
        _ request: HTTPServerRequest, route index: Int, pathValues: [String: String]
    ) -> PreparedResponse? {
        guard let resources, let store, let entry = resources.roles[routeNames[index]],
            request.headers.first(name: "Prefer") == nil
        else { return nil }
        let collection = resources.collections[entry.collection]
        let operation = routes[index].operation
        let plain = answer(route: index, headers: request.headers)
        let code = plain.response.status.code
        guard (200..<300).contains(code) else { return plain }
        let mediaType = plain.response.headers.first(name: "Content-Type")
        let jsonBody = mediaType.map(ResourceModel.isJSON) ?? false
        if !jsonBody && !plain.response.body.isEmpty { return nil }
        let key = Self.collectionKey(collection, pathValues)
        let schema = statefulSchemas[index]
        switch entry.role {
        case .create:
            let body: JSONObject
            switch Self.objectBody(of: request, operation) {
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
                let stored = conform(.object(resource), to: schema, operation, status: operation.defaultStatus)
                do {
                    guard try store.insert(stored, id: id.text, in: key) else { continue }
                } catch {
                    return Self.storeFull(error, operation)
                }
                let location = basePath + key + "/" + id.text.percentEncoded()
                return respond(plain, body: jsonBody ? stored : nil, extra: ["Location": location])
            }
            return Self.problem(409, "conflict", "Conflict", "No free id for a new resource of \(key)", operation)
        case .list:
            return respond(plain, body: list(request, operation, schema, key, store), extra: [:])
        case .read, .replace, .patch, .delete:
            guard let id = Self.idText(pathValues[collection.idParameter], collection.idKind) else {
                return notFoundItem(operation, key, pathValues[collection.idParameter] ?? "", request)
            }
            return item(
                request, entry.role, collection, id, key, operation, schema, plain, jsonBody: jsonBody, store)
        }
    }

    private func item(
        _ request: HTTPServerRequest, _ role: ResourceModel.Role, _ collection: ResourceModel.Collection,
        _ id: String, _ key: String, _ operation: ContractOperation, _ schema: Schema?, _ plain: PreparedResponse,
        jsonBody: Bool, _ store: ResourceStore
    ) -> PreparedResponse {
        var missing: PreparedResponse { notFoundItem(operation, key, id, request) }
        switch role {
        case .read:
            guard let stored = store.value(id: id, in: key) else { return missing }
            // What a create of the same schema stored is valid as it is.
            if readsAsStored[collectionIndex(of: operation)] { return respond(plain, body: stored) }
            return respond(plain, body: conform(stored, to: schema, operation, status: operation.defaultStatus))
        case .delete:
            return store.remove(id: id, in: key) ? plain : missing
        case .replace, .patch:
            let patch: JSONObject
            switch Self.objectBody(of: request, operation) {
            case .success(let object): patch = object
            case .failure(let refusal): return refusal
            }
            for _ in 0..<8 {
                guard let old = store.value(id: id, in: key) else { return missing }
                var next = role == .patch ? MergePatch.apply(.object(patch), to: old) : .object(patch)
                if let property = collection.idProperty, case .object(var object) = next {
                    object[property] = old[property] ?? Self.idValue(id, collection.idKind)
                    next = .object(object)
                }
                let stored = conform(next, to: schema, operation, status: operation.defaultStatus)
                do {
                    guard try store.replace(stored, id: id, in: key, expected: old) else { continue }
                } catch {
                    return Self.storeFull(error, operation)
                }
                return respond(plain, body: jsonBody ? stored : nil)
            }
            return Self.problem(
                409, "conflict", "Conflict", "\(key)/\(id) kept changing while it was being patched", operation)
        case .create, .list:
            return plain
        }
    }

    /// A page of the collection: `offset` (else `page`) and `limit` when the operation documents
    /// them, at most ``maximumPage`` (and the array's `maxItems`).
    private func list(
        _ request: HTTPServerRequest, _ operation: ContractOperation, _ schema: Schema?, _ key: String,
        _ store: ResourceStore
    ) -> JSONValue? {
        guard let schema, let shape = ResourceModel.listShape(of: schema, contract) else { return nil }
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
        if let maxItems = listArraySchema(schema, shape)?.limits.maxItems { size = min(size, maxItems) }
        size = max(0, min(size, Self.maximumPage))
        var offset = number("offset") ?? 0
        if parameter("offset") == nil, let page = number("page") {
            let first = parameter("page")?.schema.limits.minimum == 0 ? 0 : 1
            offset = max(0, page - first) * size
        }
        let (stored, total) = store.page(of: key, offset: max(0, offset), limit: size)
        let itemSchema = ResourceModel.itemSchema(ofList: schema, shape, contract)
        let items = stored.map {
            conform($0, to: itemSchema, operation, status: operation.defaultStatus, part: "items")
        }
        switch shape {
        case .array: return .array(items)
        case .property(let name):
            var base = generatedBase(schema, operation, status: operation.defaultStatus, part: "")?.objectValue ?? [:]
            base[name] = .array(items)
            for counter in ["total", "totalCount", "total_count", "count"] where base[counter]?.intValue != nil {
                base[counter] = .int(Int64(total))
            }
            return .object(base)
        }
    }

    private func listArraySchema(_ schema: Schema, _ shape: ResourceModel.ListShape) -> Schema? {
        switch shape {
        case .array: schema
        case .property(let name): schema.properties.first { $0.name == name }.flatMap { contract.resolve($0.schema) }
        }
    }

    /// `value` as the schema allows it: fields the schema has that the value lacks are the
    /// generator's, fields the schema refuses are left out (the schema wins).
    func conform(
        _ value: JSONValue, to schema: Schema?, _ operation: ContractOperation, status: String, part: String = ""
    ) -> JSONValue {
        guard let schema, case .object(let stored) = value,
            case .object(var result)? = generatedBase(schema, operation, status: status, part: part)
        else { return value }
        let checker = SchemaConformance(contract: contract, budget: 1_000_000)
        // The resource with the required fields it lacks, first: an optional field a patch
        // removed stays removed.
        var completed = stored
        let required = ResourceModel.flattenedObject(schema, contract).required
        for name in required where completed[name] == nil {
            if let generated = result[name] { completed[name] = generated }
        }
        if checker.accepts(.object(completed), schema) { return .object(completed) }
        var whole = result
        for member in stored.members { whole[member.key] = member.value }
        if checker.accepts(.object(whole), schema) { return .object(whole) }
        for member in stored.members {
            var trial = result
            trial[member.key] = member.value
            if checker.accepts(.object(trial), schema) { result = trial }
        }
        return .object(result)
    }

    /// The generator's body for a schema of an operation's answer, made once and kept.
    private func generatedBase(
        _ schema: Schema, _ operation: ContractOperation, status: String, part: String
    ) -> JSONValue? {
        let key = "\(operation.name) \(status) stateful \(part)"
        if let made = statefulBases.withLock({ $0[key] }) { return made }
        guard
            case .success(let value) = GeneratedBody.make(
                for: schema, in: contract, seed: GeneratedBody.Seed(key: key, number: nil))
        else { return nil }
        statefulBases.withLock { $0[key] = value }
        return value
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

    private func collectionIndex(of operation: ContractOperation) -> Int {
        resources?.roles[operation.name]?.collection ?? 0
    }

    /// Each route's answer schema, resolved, for the stateful ones (nil for the others).
    static func statefulSchemas(
        _ model: ResourceModel?, _ routes: [ContractOperation], _ contract: Contract
    ) -> [Schema?] {
        routes.map { operation in
            model?.roles[operation.name] == nil ? nil : ResourceModel.defaultResponseSchema(operation, contract)
        }
    }

    /// For each collection, whether its read answers with the schema its create stores with (and
    /// no replace or patch stores with another), so that a read sends what is stored as it is.
    static func readsAsStored(_ model: ResourceModel?, _ contract: Contract) -> [Bool] {
        guard let model else { return [] }
        return model.collections.indices.map { index in
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

    /// The request's body as a JSON object, or the problem+json refusing it.
    private static func objectBody(
        of request: HTTPServerRequest, _ operation: ContractOperation
    ) -> BodyOutcome {
        do {
            let value = try JSONParser().parse(request.body)
            guard case .object(let object) = value else {
                return .failure(
                    problem(
                        422, "invalid-body", "Invalid request body",
                        "\(operation.name) stores JSON objects: expected an object at $, found \(value.kind.rawValue)",
                        operation))
            }
            return .success(object)
        } catch {
            return .failure(
                problem(400, "invalid-body", "Invalid request body", "\(operation.name): \(error)", operation))
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

    private static func storeFull(_ refusal: ResourceStore.Refusal, _ operation: ContractOperation) -> PreparedResponse
    {
        problem(
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

    /// The operation's own answer (status, headers) with `body` in place of its own.
    private func respond(_ plain: PreparedResponse, body: JSONValue?, extra: [String: String] = [:]) -> PreparedResponse
    {
        var response = plain.response
        response.headers.remove(name: "Content-Length")
        if let body { response.body = body.serializedBytes() }
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) { response.headers.add(name: name, value: value) }
        return PreparedResponse(response)
    }
}

extension OpenAPIResponder {
    /// The store's start: each top-level collection's resources from its list's example (else
    /// its read's or create's), those with an id.
    static func seed(
        _ model: ResourceModel, _ contract: Contract
    ) -> [(collection: String, items: [(id: String, value: JSONValue)])] {
        var seed: [(collection: String, items: [(id: String, value: JSONValue)])] = []
        for (index, collection) in model.collections.enumerated() where collection.parentParameters.isEmpty {
            guard let property = collection.idProperty else { continue }
            let operations = model.roles.filter { $0.value.collection == index }
                .compactMap { name, entry in contract.operation(named: name).map { ($0, entry.role) } }
            var values: [JSONValue] = []
            if let list = operations.first(where: { $0.1 == .list })?.0, let example = firstExample(list),
                let schema = ResourceModel.defaultResponseSchema(list, contract),
                let shape = ResourceModel.listShape(of: schema, contract)
            {
                switch shape {
                case .array: values = example.arrayValue ?? []
                case .property(let name): values = example[name]?.arrayValue ?? []
                }
            }
            if values.isEmpty {
                for role in [ResourceModel.Role.read, .create] {
                    if let operation = operations.first(where: { $0.1 == role })?.0,
                        let example = firstExample(operation)
                    {
                        values = [example]
                        break
                    }
                }
            }
            let items: [(id: String, value: JSONValue)] = values.compactMap { value in
                switch value[property] {
                case .int(let number)?: (String(number), value)
                case .string(let text)? where !text.isEmpty: (text, value)
                default: nil
                }
            }
            if !items.isEmpty { seed.append((collection.path, items)) }
        }
        return seed
    }

    /// The example an operation's default answer starts with (its first named example, else its first example).
    private static func firstExample(_ operation: ContractOperation) -> JSONValue? {
        guard let response = operation.responses.first(where: { $0.status == operation.defaultStatus }) else {
            return nil
        }
        return response.namedExamples.first?.value ?? response.examples.first
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

    public func resetState(collection: String?) -> Bool {
        guard let store else { return false }
        guard let collection else { return store.reset() }
        return store.reset(collection: collection) || isCollection(collection)
    }

    /// Whether a path is one of the document's collections (with its parents' values).
    private func isCollection(_ path: String) -> Bool {
        guard let resources, let parts = ResourceModel.segments(path) else { return false }
        return resources.collections.contains { collection in
            PathTemplate(document: collection.path).match(parts: parts.map { Substring($0) }) != nil
        }
    }
}
