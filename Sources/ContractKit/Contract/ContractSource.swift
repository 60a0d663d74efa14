import APISchema

/// Where a command's contract comes from: an OpenAPI file, or the app's own contract built
/// from its endpoint declarations (``ConsumerContract``).
public struct ContractSource: Sendable {
    /// The OpenAPI file (`--contract`); nil for the built-in contract.
    public var file: String?
    /// The app's contract, whose models also decode the bodies of a file's responses that
    /// name them (`x-swift-type`); nil when no models are at hand (schema only).
    public var builtIn: ConsumerContract?

    /// A source: the file when one is given, else the built-in contract.
    public init(file: String?, builtIn: ConsumerContract?) {
        self.file = file
        self.builtIn = builtIn
    }

    /// How reports name it: the file path, or `built-in`.
    public var name: String {
        file ?? "built-in"
    }

    /// Loads the contract and the registry of models to decode bodies with: the built-in
    /// contract's (empty when there is none, and then reports say the decode check did not
    /// run). A contract file with no operations is an error: a check of it would verify
    /// nothing and pass.
    public func load() throws(ContractError) -> (contract: Contract, models: ModelRegistry) {
        let builtIn = try self.builtIn?.make()
        guard let file else {
            guard let builtIn else {
                throw .noContract(reason: "no contract is built in; give an OpenAPI file with '--contract FILE'")
            }
            return builtIn
        }
        let contract = try OpenAPIReader().read(file: file)
        guard !contract.operations.isEmpty else {
            throw .invalidContract(
                file: file, path: "$.paths", expected: "at least one operation to verify",
                found: contract.unverified.isEmpty
                    ? "none" : "none (only webhooks or callbacks: requests the API sends, which are not verified)")
        }
        return (contract, builtIn?.models ?? ModelRegistry())
    }
}
