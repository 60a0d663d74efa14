import APISchema
import HTTPCore
import JSONKit

/// Which operations of a document are the create, list, read, replace, patch and delete of a
/// collection, inferred once when the document loads: a collection is a path whose last segment
/// is literal (`/things`, `/users/{userId}/orders`) with an item path beside it, the same path
/// and one whole-segment parameter more (`/things/{id}`). Operations that are not CRUD-shaped
/// (a `POST` without a JSON object body, a list whose answer holds no array, an action path
/// such as `/things/{id}/archive`) have no role and are answered as without state.
public struct ResourceModel: Sendable {
    /// What an operation does to its collection.
    public enum Role: String, Sendable, CaseIterable {
        case create, list, read, replace, patch, delete
    }

    /// How ids are assigned: the id property's schema (else the id parameter's).
    public enum IDKind: String, Sendable {
        /// An integer sequence per collection, after the largest id stored.
        case integer
        /// A random UUID (`format: uuid`).
        case uuid
        /// A string: the sequence's next number as text, when the schema accepts it, else a UUID.
        case string
    }

    /// One collection of the document.
    public struct Collection: Sendable, Hashable {
        /// The collection's path template, `/users/{userId}/orders`.
        public var path: String
        /// The item's path template, `/users/{userId}/orders/{orderId}`.
        public var itemPath: String
        /// The item path's last parameter, `orderId`.
        public var idParameter: String
        /// The property of a resource that holds its id (`id`, or the parameter's name); nil
        /// when the resource's schema has neither, and then the id is in the path alone.
        public var idProperty: String?
        /// How ids are assigned.
        public var idKind: IDKind
        /// The id's schema (the property's, else the parameter's).
        public var idSchema: Schema
        /// The parameters of the parent path (`userId`): one store bucket per value.
        public var parentParameters: [String]
    }

    /// The collections, in the document's order.
    public let collections: [Collection]
    /// Each stateful operation's (`POST /things`) collection index and role.
    public let roles: [String: (collection: Int, role: Role)]

    /// The role of the operation named `name`, and its collection.
    public func role(of name: String) -> (collection: Collection, role: Role)? {
        roles[name].map { (collections[$0.collection], $0.role) }
    }

    /// Infers the collections of `contract`.
    public init(contract: Contract) {
        let byPath = Dictionary(grouping: contract.operations, by: \.path)
        var collections: [Collection] = []
        var roles: [String: (collection: Int, role: Role)] = [:]
        for path in Self.orderedPaths(contract) {
            guard let segments = Self.segments(path), let last = segments.last, !Self.isParameter(last) else {
                continue
            }
            // The parent's segments are literals or whole-segment parameters.
            guard segments.allSatisfy({ !$0.contains("{") || Self.isParameter($0) }) else { continue }
            guard
                let itemPath = byPath.keys.sorted().first(where: { candidate in
                    guard let item = Self.segments(candidate), item.count == segments.count + 1,
                        Array(item.dropLast()) == segments, let id = item.last
                    else { return false }
                    return Self.isParameter(id)
                }), let idSegment = Self.segments(itemPath)?.last
            else { continue }
            let idParameter = String(idSegment.dropFirst().dropLast())
            let own = byPath[path] ?? []
            let items = byPath[itemPath] ?? []
            var found: [(ContractOperation, Role)] = []
            for operation in own {
                if operation.method == .post, Self.jsonObjectBody(operation, contract) != nil {
                    found.append((operation, .create))
                } else if operation.method == .get, Self.listShape(operation, contract) != nil {
                    found.append((operation, .list))
                }
            }
            for operation in items {
                switch operation.method {
                case .get where Self.jsonObjectResponse(operation, contract) != nil: found.append((operation, .read))
                case .put where Self.jsonObjectBody(operation, contract) != nil: found.append((operation, .replace))
                case .patch where Self.jsonObjectBody(operation, contract) != nil: found.append((operation, .patch))
                case .delete: found.append((operation, .delete))
                default: break
                }
            }
            // A collection needs a way in: a create, or examples to list and read.
            guard found.contains(where: { $0.1 == .create || $0.1 == .read || $0.1 == .list }),
                found.contains(where: { $0.1 != .list })
            else { continue }
            let resource = Self.resourceSchema(found.map(\.0), contract)
            let properties = resource?.properties ?? []
            let idProperty =
                properties.first { $0.name == idParameter }?.name ?? properties.first { $0.name == "id" }?.name
            let parameterSchema =
                items.lazy.flatMap(\.parameters).first { $0.location == .path && $0.name == idParameter }?.schema
                ?? Schema(types: [.string])
            let idSchema =
                idProperty.flatMap { name in properties.first { $0.name == name }?.schema }
                .flatMap(contract.resolve) ?? contract.resolve(parameterSchema) ?? parameterSchema
            let index = collections.count
            collections.append(
                Collection(
                    path: path, itemPath: itemPath, idParameter: idParameter, idProperty: idProperty,
                    idKind: Self.idKind(idSchema), idSchema: idSchema,
                    parentParameters: segments.filter(Self.isParameter).map { String($0.dropFirst().dropLast()) }))
            for (operation, role) in found { roles[operation.name] = (index, role) }
        }
        self.collections = collections
        self.roles = roles
    }

    /// The operations' paths, each once, in the document's order.
    private static func orderedPaths(_ contract: Contract) -> [String] {
        var seen = Set<String>()
        return contract.operations.map(\.path).filter { seen.insert($0).inserted }
    }

    static func segments(_ path: String) -> [String]? {
        guard path.hasPrefix("/"), path.count > 1, !path.hasSuffix("/") else { return nil }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    static func isParameter(_ segment: String) -> Bool {
        segment.count > 2 && segment.hasPrefix("{") && segment.hasSuffix("}")
            && !segment.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" })
    }

    static func idKind(_ schema: Schema) -> IDKind {
        if schema.nonNullTypes.contains(.integer) { return .integer }
        if schema.format?.lowercased() == "uuid" { return .uuid }
        return .string
    }

    /// The JSON schema of an operation's request body when it is an object.
    static func jsonObjectBody(_ operation: ContractOperation, _ contract: Contract) -> Schema? {
        guard let content = operation.requestBody?.content.first(where: { isJSON($0.mediaType) }),
            let schema = content.schema.flatMap(contract.resolve), isObject(schema, contract)
        else { return nil }
        return schema
    }

    /// The JSON schema of an operation's default answer when it is an object.
    static func jsonObjectResponse(_ operation: ContractOperation, _ contract: Contract) -> Schema? {
        guard let schema = defaultResponseSchema(operation, contract), isObject(schema, contract) else { return nil }
        return schema
    }

    /// The schema of an operation's default answer, JSON only.
    static func defaultResponseSchema(_ operation: ContractOperation, _ contract: Contract) -> Schema? {
        guard let response = operation.responses.first(where: { $0.status == operation.defaultStatus }),
            let mediaType = response.mediaType, isJSON(mediaType)
        else { return nil }
        return response.schema.flatMap(contract.resolve)
    }

    /// Where a list's items go in its answer: the answer itself (an array), or the name of its
    /// array property (`items`, `data`, `results` preferred, else the first).
    enum ListShape: Equatable {
        case array
        case property(String)
    }

    static func listShape(_ operation: ContractOperation, _ contract: Contract) -> ListShape? {
        guard let schema = defaultResponseSchema(operation, contract) else { return nil }
        return listShape(of: schema, contract)
    }

    static func listShape(of schema: Schema, _ contract: Contract) -> ListShape? {
        if schema.nonNullTypes == [.array] { return .array }
        let arrays = schema.properties.filter { property in
            contract.resolve(property.schema)?.nonNullTypes == [.array]
        }.map(\.name)
        let preferred = ["items", "data", "results", "content", "records"]
        guard let name = preferred.first(where: arrays.contains) ?? arrays.first else { return nil }
        return .property(name)
    }

    /// The schema of a list's items, from its answer's schema.
    static func itemSchema(ofList schema: Schema, _ shape: ListShape, _ contract: Contract) -> Schema? {
        switch shape {
        case .array: return schema.items.flatMap(contract.resolve)
        case .property(let name):
            return schema.properties.first { $0.name == name }.flatMap { contract.resolve($0.schema) }?.items
                .flatMap(contract.resolve)
        }
    }

    /// A resource's schema: the read's answer, else the create's answer, else a body's.
    private static func resourceSchema(_ operations: [ContractOperation], _ contract: Contract) -> Schema? {
        let reads = operations.filter { $0.method == .get && $0.path.hasSuffix("}") }
        let creates = operations.filter { $0.method == .post }
        for operation in reads + creates {
            if let schema = jsonObjectResponse(operation, contract) { return flattenedObject(schema, contract) }
        }
        for operation in creates + operations {
            if let schema = jsonObjectBody(operation, contract) { return flattenedObject(schema, contract) }
        }
        return nil
    }

    /// An object schema with the properties (and required names) of its `allOf` parts beside its own.
    static func flattenedObject(_ schema: Schema, _ contract: Contract) -> Schema {
        var flat = schema
        for part in schema.allOf {
            guard let resolved = contract.resolve(part) else { continue }
            let inner = flattenedObject(resolved, contract)
            for property in inner.properties where !flat.properties.contains(where: { $0.name == property.name }) {
                flat.properties.append(property)
            }
            for name in inner.required where !flat.required.contains(name) { flat.required.append(name) }
        }
        return flat
    }

    static func isObject(_ schema: Schema, _ contract: Contract) -> Bool {
        let types = schema.nonNullTypes
        if types == [.object] { return true }
        return types.isEmpty && (!schema.properties.isEmpty || !schema.allOf.isEmpty)
    }

    static func isJSON(_ mediaType: String) -> Bool {
        // By bytes, per request: Foundation's search converts to UTF-16 first.
        mediaType.lowercased().containsUTF8("json")
    }
}
