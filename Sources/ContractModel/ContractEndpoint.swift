/// An operation the app calls, declared once beside the code that calls it: its method, path
/// template, parameters, documented error statuses and the `Decodable` type its body decodes
/// to. The app's contract is generated from these declarations (ContractKit's
/// `ConsumerContract`), so the app's calls and its contract cannot disagree.
///
/// ```swift
/// struct Vet: Endpoint, ContractEndpoint {           // Endpoint: the client's protocol
///     typealias Response = VetJsonModel               // also the contract's body type
///     static let operation = EndpointOperation(
///         .get, "/vets/{id}", operationId: "getVet",
///         parameters: [.path("id", Int.self, valuesFrom: Pets.self, at: "$[*].vetId")],
///         errors: [.status(404, "No vet with that id", body: APIError.self)])
///     let id: Int
///     var path: String { Self.operation.path(["id": "\(id)"]) }
/// }
/// ```
///
/// This module has no dependencies, so an app's networking module can adopt it without
/// pulling in the contract engine.
public protocol ContractEndpoint: SendableMetatype {
    /// What the client's call returns (shared with the client's own endpoint protocol).
    associatedtype Response
    /// What the success body decodes to: `Response` unless the call wraps it (a list decoded
    /// element by element, say), in which case declare it.
    associatedtype ContractBody: Decodable & SendableMetatype = Response
    /// The operation as the contract describes it.
    static var operation: EndpointOperation { get }
}

/// One declared operation: method, path template, parameters, responses.
public struct EndpointOperation: Sendable {
    /// A request method token: `.get`, `.post`, ... or any token as a string literal.
    public struct Method: Sendable, Hashable, ExpressibleByStringLiteral {
        /// The token, upper case.
        public let token: String

        /// A method from its token.
        public init(stringLiteral token: String) {
            self.token = token.uppercased()
        }

        public static let get: Method = "GET"
        public static let post: Method = "POST"
        public static let put: Method = "PUT"
        public static let patch: Method = "PATCH"
        public static let delete: Method = "DELETE"
    }

    /// The request method, upper case (`GET`).
    public var method: String
    /// The path template under the base URL, `/vets/{id}`.
    public var pathTemplate: String
    /// `operationId`.
    public var operationId: String
    /// `summary`.
    public var summary: String?
    /// The path, query and header parameters.
    public var parameters: [EndpointParameter]
    /// The success status.
    public var status: Int
    /// The success response's `description`.
    public var description: String
    /// Example success bodies as JSON text.
    public var examples: [String]
    /// The documented failure statuses.
    public var errors: [EndpointErrorResponse]

    /// Declares an operation.
    public init(
        _ method: Method, _ pathTemplate: String, operationId: String, summary: String? = nil,
        parameters: [EndpointParameter] = [], status: Int = 200, description: String = "OK", examples: [String] = [],
        errors: [EndpointErrorResponse] = []
    ) {
        self.method = method.token
        self.pathTemplate = pathTemplate
        self.operationId = operationId
        self.summary = summary
        self.parameters = parameters
        self.status = status
        self.description = description
        self.examples = examples
        self.errors = errors
    }

    /// How reports name the operation: `GET /vets/{id}`.
    public var name: String { "\(method) \(pathTemplate)" }

    /// The `{name}` placeholders of the path template, in order.
    public var pathPlaceholders: [String] {
        var names: [String] = []
        var rest = Substring(pathTemplate)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The path with each `{name}` replaced by its value, so the call is built from the same
    /// template the contract declares; a placeholder without a value stays as written.
    public func path(_ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(pathTemplate)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            result += values[name] ?? "{\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

/// A parameter of a declared operation, and where a verifier finds values for it.
public struct EndpointParameter: Sendable {
    /// Where the parameter goes.
    public enum Location: String, Sendable, Hashable {
        /// A `{name}` in the path template.
        case path
        /// The query string.
        case query
        /// A request header.
        case header
    }

    /// Values found in an earlier operation's response.
    public struct Source: Sendable, Hashable {
        /// The operation whose response holds them, `GET /pets`.
        public var operation: String
        /// A JSONPath selecting them, `$[*].vetId`.
        public var path: String

        /// Creates a source.
        public init(operation: String, path: String) {
            self.operation = operation
            self.path = path
        }
    }

    /// The name.
    public var name: String
    /// Where it goes.
    public var location: Location
    /// Whether it must be given (path parameters always are).
    public var required: Bool
    /// The Swift type of its value, for the schema.
    public var type: any (Decodable & SendableMetatype).Type
    /// Example values as they are sent, used when no earlier response gives one.
    public var examples: [String]
    /// Earlier responses that give values.
    public var sources: [Source]
    /// `description`.
    public var description: String?

    /// Creates a parameter.
    public init(
        _ name: String, in location: Location, required: Bool, type: any (Decodable & SendableMetatype).Type,
        examples: [String] = [], sources: [Source] = [], description: String? = nil
    ) {
        self.name = name
        self.location = location
        self.required = location == .path ? true : required
        self.type = type
        self.examples = examples
        self.sources = sources
        self.description = description
    }

    /// A path parameter whose values are taken from another endpoint's responses: every value
    /// `jsonPath` selects in its body (`$[*].vetId`).
    public static func path<Source: ContractEndpoint>(
        _ name: String, _ type: any (Decodable & SendableMetatype).Type, valuesFrom endpoint: Source.Type,
        at jsonPath: String, examples: [String] = [], description: String? = nil
    ) -> EndpointParameter {
        EndpointParameter(
            name, in: .path, required: true, type: type, examples: examples,
            sources: [EndpointParameter.Source(operation: endpoint.operation.name, path: jsonPath)],
            description: description)
    }

    /// A path parameter with example values.
    public static func path(
        _ name: String, _ type: any (Decodable & SendableMetatype).Type, examples: [String],
        description: String? = nil
    ) -> EndpointParameter {
        EndpointParameter(name, in: .path, required: true, type: type, examples: examples, description: description)
    }

    /// A query parameter.
    public static func query(
        _ name: String, _ type: any (Decodable & SendableMetatype).Type, required: Bool = false,
        examples: [String] = [], description: String? = nil
    ) -> EndpointParameter {
        EndpointParameter(
            name, in: .query, required: required, type: type, examples: examples, description: description)
    }
}

/// A failure status an operation documents, and the error body the app reads with it.
public struct EndpointErrorResponse: Sendable {
    /// The status code.
    public var status: Int
    /// `description`.
    public var description: String
    /// The body's type; nil for no body.
    public var body: (any (Decodable & SendableMetatype).Type)?
    /// Example bodies as JSON text.
    public var examples: [String]

    /// Declares a failure status.
    public static func status(
        _ status: Int, _ description: String, body: (any (Decodable & SendableMetatype).Type)? = nil,
        examples: [String] = []
    ) -> EndpointErrorResponse {
        EndpointErrorResponse(status: status, description: description, body: body, examples: examples)
    }
}
