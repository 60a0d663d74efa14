import APISchema
import ContractModel
import Foundation
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

    private var reflector: SchemaReflector
    private var operations: [ContractOperation] = []
    /// The registry of every type used as a response body so far.
    public private(set) var models: ModelRegistry
    private let title: String
    private let version: String
    private let description: String?

    /// Creates a builder for a contract with this `info`; schemas describe the JSON that the
    /// decoders `makeDecoder` makes read (the app's own configuration), and the registry decodes
    /// bodies with them.
    public init(
        title: String, version: String, description: String? = nil,
        makeDecoder: @escaping @Sendable () -> JSONDecoder = ModelRegistry.defaultDecoder
    ) {
        self.title = title
        self.version = version
        self.description = description
        reflector = SchemaReflector(decoder: makeDecoder())
        models = ModelRegistry(makeDecoder: makeDecoder)
    }

    /// Adds the operation an endpoint declares (``ContractEndpoint``): its path template and
    /// parameters, its success body as `E.ContractBody`, its documented failures.
    public mutating func add<E: ContractEndpoint>(_ endpoint: E.Type) throws(ContractError) {
        let declared = E.operation
        let method = HTTPMethod(rawValue: declared.method)
        guard !declared.method.isEmpty, declared.method.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .invalidEndpoint(
                endpoint: SwiftTypeName.of(E.self), reason: "'\(declared.method)' is not an HTTP method")
        }
        let placeholders = declared.pathPlaceholders
        let pathNames = declared.parameters.filter { $0.location == .path }.map(\.name)
        guard Set(placeholders) == Set(pathNames), placeholders.count == pathNames.count else {
            throw .invalidEndpoint(
                endpoint: SwiftTypeName.of(E.self),
                reason: "the path template '\(declared.pathTemplate)' has {\(placeholders.joined(separator: "}, {"))} "
                    + "but the path parameters declared are \(pathNames.isEmpty ? "none" : pathNames.joined(separator: ", "))"
            )
        }
        var parameters: [ContractParameter] = []
        for parameter in declared.parameters {
            parameters.append(try contractParameter(parameter, endpoint: SwiftTypeName.of(E.self)))
        }
        var errors: [ErrorResponse] = []
        for error in declared.errors {
            errors.append(
                ErrorResponse(
                    status: error.status, description: error.description, body: error.body,
                    examples: try examples(error.examples, endpoint: SwiftTypeName.of(E.self))))
        }
        try add(
            method, declared.pathTemplate, operationId: declared.operationId, summary: declared.summary,
            parameters: parameters, returns: E.ContractBody.self, status: declared.status,
            description: declared.description,
            examples: try examples(declared.examples, endpoint: SwiftTypeName.of(E.self)),
            errors: errors)
    }

    private func contractParameter(
        _ parameter: EndpointParameter, endpoint: String
    ) throws(ContractError) -> ContractParameter {
        let schema = try reflector.schema(for: parameter.type)
        let location: ContractParameter.Location =
            switch parameter.location {
            case .path: .path
            case .query: .query
            case .header: .header
            }
        let examples = parameter.examples.map { text -> JSONValue in
            if schema.types.contains(.integer), let number = Int64(text) { return .int(number) }
            if schema.types.contains(.number), let number = try? JSONValue(parsing: text),
                [.number, .integer].contains(number.kind)
            {
                return number
            }
            if schema.types.contains(.boolean), let flag = Bool(text) { return .bool(flag) }
            return .string(text)
        }
        return ContractParameter(
            name: parameter.name, location: location, required: parameter.required, schema: schema,
            examples: examples,
            sources: parameter.sources.map { ParameterSource(operation: $0.operation, path: $0.path) },
            description: parameter.description)
    }

    private func examples(_ texts: [String], endpoint: String) throws(ContractError) -> [JSONValue] {
        var values: [JSONValue] = []
        for text in texts {
            do {
                values.append(try JSONValue(parsing: text))
            } catch {
                throw .invalidEndpoint(endpoint: endpoint, reason: "an example is not JSON: \(error)")
            }
        }
        return values
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
