/// Where a command's contract comes from: a file, or the Pet API models built in.
public enum ContractSource: Sendable, Hashable {
    /// The contract derived from PetModels (``PetAPIContract``).
    case builtIn
    /// An OpenAPI file.
    case file(String)

    /// The source for an optional `--contract` value.
    public init(file: String?) {
        self = file.map(ContractSource.file) ?? .builtIn
    }

    /// How reports name it: the file path, or `built-in`.
    public var name: String {
        switch self {
        case .builtIn: "built-in"
        case .file(let path): path
        }
    }

    /// Loads the contract, with the registry of the Pet API models (responses whose
    /// `x-swift-type` names one of them are also decoded with it). A contract file with no
    /// operations is an error: a check of it would verify nothing and pass.
    public func load() throws(ContractError) -> (contract: Contract, models: ModelRegistry) {
        let builtIn = try PetAPIContract.make()
        switch self {
        case .builtIn: return builtIn
        case .file(let path):
            let contract = try OpenAPIReader().read(file: path)
            // A gate that checks nothing must not pass: a contract without operations is refused.
            guard !contract.operations.isEmpty else {
                throw .invalidContract(
                    file: path, path: "$.paths", expected: "at least one operation to verify", found: "none")
            }
            return (contract, builtIn.models)
        }
    }
}
