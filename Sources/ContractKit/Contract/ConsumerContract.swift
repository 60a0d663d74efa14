import APISchema
import ContractModel
import Foundation

/// An app's contract: exactly the operations the app calls, from the endpoints it declares
/// (``ContractEndpoint``), with schemas describing the JSON its own `JSONDecoder` reads. What
/// the app never calls is not in it, so an API is judged only on what the app needs (the
/// consumer-driven rule).
///
/// ```swift
/// let app = ConsumerContract(
///     title: "Repo Browser", version: "1.0.0",
///     endpoints: [UserRepos.self, RepoDetail.self],
///     makeDecoder: { let d = JSONDecoder(); d.keyDecodingStrategy = .convertFromSnakeCase; return d })
/// let (contract, models) = try app.make()
/// ```
public struct ConsumerContract: Sendable {
    /// `info.title`.
    public var title: String
    /// `info.version`.
    public var version: String
    /// `info.description`.
    public var description: String?
    /// The endpoints the app calls, in the order the contract lists them (an operation whose
    /// parameter takes values from another's response comes after it).
    public var endpoints: [any ContractEndpoint.Type]
    /// Makes the decoder the app decodes responses with (key, date and data strategies).
    public var makeDecoder: @Sendable () -> JSONDecoder
    /// Where `generate` writes the contract by default, relative to the working directory.
    public var defaultOutput: String

    /// Describes an app's contract.
    public init(
        title: String, version: String, description: String? = nil, endpoints: [any ContractEndpoint.Type],
        makeDecoder: @escaping @Sendable () -> JSONDecoder = ModelRegistry.defaultDecoder,
        defaultOutput: String? = nil
    ) {
        self.title = title
        self.version = version
        self.description = description
        self.endpoints = endpoints
        self.makeDecoder = makeDecoder
        self.defaultOutput = defaultOutput ?? "Contracts/\(ConsumerContract.slug(title)).openapi.json"
    }

    /// Builds the contract and the registry of the models its bodies decode to. Two endpoints
    /// declaring the same operation (method and path) are one operation when they agree.
    public func make() throws(ContractError) -> (contract: Contract, models: ModelRegistry) {
        var builder = ContractBuilder(
            title: title, version: version, description: description, makeDecoder: makeDecoder)
        var seen: [String: String] = [:]
        for endpoint in endpoints {
            let operation = endpoint.operation
            if let earlier = seen[operation.name] {
                throw .invalidEndpoint(
                    endpoint: SwiftTypeName.of(endpoint),
                    reason: "it declares \(operation.name), which '\(earlier)' already declares")
            }
            seen[operation.name] = SwiftTypeName.of(endpoint)
            try builder.add(endpoint)
        }
        let contract = builder.contract
        for operation in contract.operations {
            for parameter in operation.parameters {
                for source in parameter.sources where contract.operation(named: source.operation) == nil {
                    throw .invalidEndpoint(
                        endpoint: operation.name,
                        reason: "parameter '\(parameter.name)' takes values from \(source.operation), "
                            + "which is not among the endpoints")
                }
            }
        }
        return (contract, builder.models)
    }

    /// `Repo Browser` → `repo-browser`.
    static func slug(_ title: String) -> String {
        var result = ""
        for character in title.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else if !result.isEmpty && result.last != "-" {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "contract" : result
    }
}
