import HTTPCore
import JSONKit

/// Builds a ``Contract`` from Swift models: each operation names the `Decodable` type its
/// body decodes to, and the schemas come from reflecting those types.
///
/// ```swift
/// var builder = ContractBuilder(title: "Pet API", version: "1.0.0")
/// try builder.add(.get, "/pets", operationId: "listPets", returns: [PetJsonModel].self)
/// let contract = builder.contract
/// let models = builder.models            // for decoding bodies with the real types
/// ```
public struct ContractBuilder {
    /// A non-success response an operation documents, such as a 404 with an error body.
    public struct ErrorResponse {
        /// The status code.
        public var status: Int
        /// `description`.
        public var description: String
        /// The body's type, or nil for no body.
        public var body: (any (Decodable & SendableMetatype).Type)?
        /// Example bodies.
        public var examples: [JSONValue]

        /// Creates an error response.
        public init(
            status: Int, description: String, body: (any (Decodable & SendableMetatype).Type)?,
            examples: [JSONValue] = []
        ) {
            self.status = status
            self.description = description
            self.body = body
            self.examples = examples
        }
    }

    private var reflector = SchemaReflector()
    private var operations: [ContractOperation] = []
    /// The registry of every type used as a response body so far.
    public private(set) var models = ModelRegistry()
    private let title: String
    private let version: String
    private let description: String?

    /// Creates a builder for a contract with this `info`.
    public init(title: String, version: String, description: String? = nil) {
        self.title = title
        self.version = version
        self.description = description
    }

    /// Adds an operation whose success response (`status`, `application/json`) decodes to `Body`.
    public mutating func add<Body: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ path: String, operationId: String, summary: String? = nil,
        parameters: [ContractParameter] = [], returns body: Body.Type, status: Int = 200,
        description: String = "OK", examples: [JSONValue] = [], errors: [ErrorResponse] = []
    ) throws(ContractError) {
        var schema = try reflector.schema(for: body)
        schema.swiftType = SwiftTypeName.of(body)
        var responses = [
            ContractResponse(
                status: String(status), description: description, schema: schema, examples: examples,
                swiftType: SwiftTypeName.of(body))
        ]
        models.register(body)
        for error in errors {
            responses.append(try errorResponse(error))
        }
        operations.append(
            ContractOperation(
                method: method, path: path, operationId: operationId, summary: summary, parameters: parameters,
                responses: responses))
    }

    private mutating func errorResponse(_ error: ErrorResponse) throws(ContractError) -> ContractResponse {
        guard let type = error.body else {
            return ContractResponse(status: String(error.status), description: error.description, mediaType: nil)
        }
        return try errorResponse(error, type)
    }

    private mutating func errorResponse<T: Decodable & SendableMetatype>(
        _ error: ErrorResponse, _ type: T.Type
    ) throws(ContractError) -> ContractResponse {
        models.register(type)
        var schema = try reflector.schema(for: type)
        schema.swiftType = SwiftTypeName.of(type)
        return ContractResponse(
            status: String(error.status), description: error.description, schema: schema, examples: error.examples,
            swiftType: SwiftTypeName.of(type))
    }

    /// The contract built so far.
    public var contract: Contract {
        Contract(
            title: title, version: version, description: description, operations: operations,
            components: reflector.components)
    }
}
