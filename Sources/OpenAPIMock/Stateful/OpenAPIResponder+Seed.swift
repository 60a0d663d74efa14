import APISchema
import JSONKit

extension OpenAPIResponder {
    /// The store's start: each collection's resources from its list's example (else its read's
    /// or create's), those with an id; a nested collection's by the parent values each example
    /// gives (a `userId` property for `/users/{userId}/orders`). With the examples left out and why.
    static func seed(
        _ model: ResourceModel, _ contract: Contract
    ) -> (seed: [(collection: String, items: [(id: String, value: JSONValue)])], problems: [String]) {
        var seed: [(collection: String, items: [(id: String, value: JSONValue)])] = []
        var problems: [String] = []
        for (index, collection) in model.collections.enumerated() {
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
            var byKey: [String: [(id: String, value: JSONValue)]] = [:]
            var keys: [String] = []
            for (position, value) in values.enumerated() {
                let id: String
                switch value[property] {
                case .int(let number)?: id = String(number)
                case .string(let text)? where !text.isEmpty: id = text
                default:
                    problems.append(
                        "\(collection.path): example \(position) has no id (an integer or a non-empty string at "
                            + "$.\(property)): not stored")
                    continue
                }
                var parents: [String: String] = [:]
                for name in collection.parentParameters {
                    switch value[name] {
                    case .int(let number)?: parents[name] = String(number)
                    case .string(let text)? where !text.isEmpty: parents[name] = text
                    default: break
                    }
                }
                let missing = collection.parentParameters.filter { parents[$0] == nil }
                guard missing.isEmpty else {
                    let names = missing.map { "'\($0)'" }.joined(separator: ", ")
                    problems.append(
                        "\(collection.path): example \(position) (id '\(id)') gives no \(names) for its parent: "
                            + "not stored")
                    continue
                }
                let key = collectionKey(collection, parents)
                if byKey[key] == nil { keys.append(key) }
                byKey[key, default: []].append((id, value))
            }
            for key in keys { seed.append((key, byKey[key] ?? [])) }
        }
        return (seed, problems)
    }

    /// The example an operation's default answer starts with (its first named example, else its first example).
    private static func firstExample(_ operation: ContractOperation) -> JSONValue? {
        guard let response = operation.responses.first(where: { $0.status == operation.defaultStatus }) else {
            return nil
        }
        return response.namedExamples.first?.value ?? response.examples.first
    }
}
