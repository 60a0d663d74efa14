import APISchema
import JSONKit

/// What a stateful route needs per request, made once when the document loads: its role and
/// collection, the answer's schema compiled (``Conformer``), the list's shape and its items'.
final class StatefulRoute: Sendable {
    let collection: Int
    /// The collection itself (its id's property, kind and parameter).
    let resource: ResourceModel.Collection
    let role: ResourceModel.Role
    /// The answer's body as the schema allows it (nil when the answer is not described).
    let answer: Conformer?
    /// A list's: where its items go, their conformer and the array's `maxItems`.
    let listShape: ResourceModel.ListShape?
    let items: Conformer?
    let maxItems: Int?
    /// A read: whether what its collection's create stored is valid as it is.
    let readsAsStored: Bool
    /// The collection's path template in segments: a literal, or a parent parameter's name.
    let keySegments: [KeySegment]
    /// The store's key of a collection with no parent parameters (`/things`), the same for
    /// every request.
    private let fixedKey: String?

    enum KeySegment: Sendable {
        case literal(String)
        case parameter(String)
    }

    init(
        _ operation: ContractOperation, collection index: Int, role: ResourceModel.Role,
        _ collection: ResourceModel.Collection, readsAsStored: Bool, in contract: Contract
    ) {
        self.collection = index
        resource = collection
        self.role = role
        self.readsAsStored = readsAsStored
        keySegments = (ResourceModel.segments(collection.path) ?? []).map { segment in
            ResourceModel.isParameter(segment)
                ? .parameter(String(segment.dropFirst().dropLast())) : .literal(segment)
        }
        var fixed: String? = ""
        for case .literal(let text) in keySegments { fixed? += "/" + text }
        if keySegments.contains(where: { if case .parameter = $0 { true } else { false } }) { fixed = nil }
        fixedKey = fixed
        let status = operation.defaultStatus
        let schema = ResourceModel.defaultResponseSchema(operation, contract)
        answer = schema.map { Conformer($0, operation, status: status, part: "", in: contract) }
        if role == .list, let schema, let shape = ResourceModel.listShape(of: schema, contract) {
            listShape = shape
            items = ResourceModel.itemSchema(ofList: schema, shape, contract).map {
                Conformer($0, operation, status: status, part: "items", in: contract)
            }
            let array: Schema? =
                switch shape {
                case .array: schema
                case .property(let name):
                    schema.properties.first { $0.name == name }.flatMap { contract.resolve($0.schema) }
                }
            maxItems = array?.limits.maxItems
        } else {
            listShape = nil
            items = nil
            maxItems = nil
        }
    }

    /// The collection's path with its parents' values, each percent-encoded (so that a value
    /// holding `/` names no other collection and the `Location` built on it is a valid URL):
    /// `/users/7/orders`.
    func key(_ values: [String: String]) -> String {
        if let fixedKey { return fixedKey }
        var key = ""
        for segment in keySegments {
            key += "/"
            switch segment {
            case .literal(let text): key += text
            case .parameter(let name): key += (values[name] ?? "").percentEncoded()
            }
        }
        return key
    }
}
