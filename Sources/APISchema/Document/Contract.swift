import HTTPCore
import JSONKit

/// An API contract: operations, their responses and the schemas of their bodies, as an
/// OpenAPI 3.1 document describes them.
///
/// Build one from an app's endpoint declarations with ``ConsumerContract`` (or operation by
/// operation with ``ContractBuilder``), write it with ``OpenAPIWriter``, read one with ``OpenAPIReader``.
public struct Contract: Sendable, Hashable {
    /// `info.title`.
    public var title: String
    /// `info.version`.
    public var version: String
    /// `info.description`.
    public var description: String?
    /// The operations in document order.
    public var operations: [ContractOperation]
    /// `components/schemas`, in order.
    public var components: [NamedSchema] {
        didSet { componentPositions = Self.positions(of: components) }
    }
    /// Where the first component of each name stands in ``components``: a `$ref` is resolved by
    /// one look-up, not a scan of every component (a large document resolves many per body made).
    private var componentPositions: [String: Int]
    /// What the document describes that verification does not check, one line each: webhooks
    /// and callbacks (requests the API sends, not answers to the app's calls). Reports carry
    /// them as notes; the writer leaves them out.
    public var unverified: [String] = []
    /// The schema keywords of the document that are neither checked nor generated
    /// (`patternProperties`, `if`/`then`/`else`, ...), one line each with the keyword and its
    /// JSON pointer. The reader lists them; petmock warns of them at start and reports carry
    /// them as notes; the writer leaves them out.
    public var ignoredKeywords: [String] = []
    /// The `url` of each entry of `servers`, in order (`https://items.example.com/v2`).
    public var servers: [String] = []
    /// `components/securitySchemes`, in order.
    public var securitySchemes: [SecurityScheme] = []
    /// The document's `security`: the requirements of every operation that has none of its
    /// own; nil when the document has none.
    public var security: [SecurityRequirement]?

    /// Creates a contract.
    public init(
        title: String, version: String, description: String? = nil, operations: [ContractOperation] = [],
        components: [NamedSchema] = []
    ) {
        self.title = title
        self.version = version
        self.description = description
        self.operations = operations
        self.components = components
        componentPositions = Self.positions(of: components)
    }

    private static func positions(of components: [NamedSchema]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(components.count)
        for (index, component) in components.enumerated() where positions[component.name] == nil {
            positions[component.name] = index
        }
        return positions
    }

    /// The component schema with this name.
    public func component(named name: String) -> Schema? {
        componentPositions[name].map { components[$0].schema }
    }

    /// The schema a `$ref` points at (following chains of references), or the schema itself
    /// when it is not a reference; nil when a reference points at nothing.
    public func resolve(_ schema: Schema) -> Schema? {
        var current = schema
        var hops = 0
        while current.reference != nil {
            guard hops < 32, let name = current.referencedComponent, let target = component(named: name) else {
                return nil
            }
            current = target
            hops += 1
        }
        return current
    }

    /// The operation named like `GET /pets`.
    public func operation(named name: String) -> ContractOperation? {
        operations.first { $0.name == name }
    }
}

/// One operation: method and path template, parameters and documented responses.
public struct ContractOperation: Sendable, Hashable {
    /// The method.
    public var method: HTTPMethod
    /// The path template, `/vets/{id}`.
    public var path: String
    /// `operationId`.
    public var operationId: String?
    /// `summary`.
    public var summary: String?
    /// Path, query and header parameters.
    public var parameters: [ContractParameter]
    /// The documented responses in document order.
    public var responses: [ContractResponse]
    /// `requestBody`, when the operation takes one.
    public var requestBody: ContractRequestBody?
    /// Its own `security` (`[]`: anonymous access); nil when it has none and the document's
    /// applies (``Contract/securityRequirements(of:)``).
    public var security: [SecurityRequirement]?
    /// `callbacks`: the requests the API sends when this operation is called, one per
    /// callback expression and method, in document order.
    public var callbacks: [ContractCallback] = []
    /// The `url` of each entry of its own `servers`, in order; empty when the document's apply.
    public var servers: [String] = []

    /// Creates an operation.
    public init(
        method: HTTPMethod, path: String, operationId: String? = nil, summary: String? = nil,
        parameters: [ContractParameter] = [], responses: [ContractResponse] = [],
        requestBody: ContractRequestBody? = nil
    ) {
        self.method = method
        self.path = path
        self.operationId = operationId
        self.summary = summary
        self.parameters = parameters
        self.responses = responses
        self.requestBody = requestBody
    }

    /// How findings name the operation: `GET /vets/{id}`.
    public var name: String { "\(method.rawValue) \(path)" }

    /// The path parameters in the order they appear in the template.
    public var pathParameters: [ContractParameter] {
        parameters.filter { $0.location == .path }
    }

    /// The response documented for a status: the exact code, then `2XX`-style ranges, then
    /// `default`.
    public func response(for status: Int) -> ContractResponse? {
        if let exact = responses.first(where: { $0.status == String(status) }) { return exact }
        let range = "\(status / 100)XX"
        if let ranged = responses.first(where: { $0.status.uppercased() == range }) { return ranged }
        return responses.first { $0.status == "default" }
    }

    /// The documented statuses as written (`200`, `404`, `default`).
    public var documentedStatuses: [String] {
        responses.map(\.status)
    }
}

/// A parameter of an operation.
public struct ContractParameter: Sendable, Hashable {
    /// Where the parameter goes.
    public enum Location: String, Sendable, Hashable {
        /// In the path template: `{id}`.
        case path
        /// In the query string.
        case query
        /// A request header.
        case header
        /// A cookie, sent in the `Cookie` header as `name=value`.
        case cookie
    }

    /// The name.
    public var name: String
    /// Where it goes.
    public var location: Location
    /// Whether it must be given (path parameters always).
    public var required: Bool
    /// Its schema.
    public var schema: Schema
    /// Example values, used to call the operation when nothing better is known: the parameter's
    /// own `example`/`examples`, then its schema's.
    public var examples: [JSONValue]
    /// The schema's `default`, the last resort after examples and the schema's `enum`.
    public var defaultValue: JSONValue?
    /// Where values come from in earlier responses (`x-petkit-source`, and OpenAPI response
    /// `links` whose parameters read `$response.body#/...`).
    public var sources: [ParameterSource]
    /// `description`.
    public var description: String?
    /// `style` as written (`form`, `simple`, `spaceDelimited`, `pipeDelimited`, `deepObject`,
    /// `label`, `matrix`, or ``tabDelimited``); nil for the location's default (`form` for query
    /// and cookie, else `simple`).
    public var style: String?
    /// `explode` as written; nil for the style's default (true for `form`, else false).
    public var explode: Bool?
    /// `allowReserved`: whether a query value may carry RFC 3986's reserved characters
    /// (`:/?#[]@!$&'()*+,;=`) without percent-encoding them (false when not written).
    public var allowReserved = false

    /// The style of an array sent as one tab-separated value (Swagger 2.0's `collectionFormat:
    /// tsv`), which OpenAPI 3 has no name for: petkit reads and writes it as this `style`, in any
    /// location, beside `spaceDelimited` and `pipeDelimited`.
    public static let tabDelimited = "tabDelimited"

    /// Creates a parameter.
    public init(
        name: String, location: Location = .path, required: Bool = true, schema: Schema = Schema(types: [.string]),
        examples: [JSONValue] = [], defaultValue: JSONValue? = nil, sources: [ParameterSource] = [],
        description: String? = nil
    ) {
        self.name = name
        self.location = location
        self.required = required
        self.schema = schema
        self.examples = examples
        self.defaultValue = defaultValue
        self.sources = sources
        self.description = description
    }
}

/// Values for a parameter found in an earlier operation's response: every value the JSONPath
/// selects in the body of `operation` (for example every `vetId` of `GET /pets`).
public struct ParameterSource: Sendable, Hashable {
    /// The operation whose response holds the values, `GET /pets`.
    public var operation: String
    /// A JSONPath selecting them, `$[*].vetId`.
    public var path: String

    /// Creates a source.
    public init(operation: String, path: String) {
        self.operation = operation
        self.path = path
    }
}

/// An operation's `requestBody`: whether it is required and a schema per media type.
public struct ContractRequestBody: Sendable, Hashable {
    /// `required`.
    public var required: Bool
    /// `description`.
    public var description: String?
    /// `content`: the media types in document order, each with its schema (nil when not described).
    public var content: [ContractMediaType]

    /// Creates a request body.
    public init(required: Bool = false, description: String? = nil, content: [ContractMediaType] = []) {
        self.required = required
        self.description = description
        self.content = content
    }

    /// The entry for a media type (compared case-insensitively).
    public func media(_ type: String) -> ContractMediaType? {
        content.first { $0.mediaType.lowercased() == type.lowercased() }
    }
}

/// One media type of a request body and its schema.
public struct ContractMediaType: Sendable, Hashable {
    /// `application/json`.
    public var mediaType: String
    /// The schema; nil when the body is not described.
    public var schema: Schema?
    /// `encoding`: how properties of a `multipart/form-data` or
    /// `application/x-www-form-urlencoded` body are sent, by property name.
    public var encoding: [String: ContractEncoding] = [:]

    /// Creates an entry.
    public init(mediaType: String, schema: Schema? = nil, encoding: [String: ContractEncoding] = [:]) {
        self.mediaType = mediaType
        self.schema = schema
        self.encoding = encoding
    }
}

/// How one property of a form body is sent (OpenAPI's Encoding Object).
public struct ContractEncoding: Sendable, Hashable {
    /// `contentType`: the media types a multipart part may have, as written (`image/png, image/*`).
    public var contentType: String?
    /// `style` as written; nil for `form`.
    public var style: String?
    /// `explode` as written; nil for the style's default.
    public var explode: Bool?
    /// `allowReserved` (false when not written).
    public var allowReserved = false
    /// `headers`: the header fields a multipart part carries beside `Content-Disposition` and
    /// `Content-Type`, each a Header Object as a response's are, in document order.
    public var headers: [ResponseHeader] = []

    /// Creates an encoding.
    public init(contentType: String? = nil, style: String? = nil, explode: Bool? = nil, allowReserved: Bool = false) {
        self.contentType = contentType
        self.style = style
        self.explode = explode
        self.allowReserved = allowReserved
    }
}

/// A documented response: status, media type and body schema.
public struct ContractResponse: Sendable, Hashable {
    /// The status as OpenAPI writes it: `200`, `2XX` or `default`.
    public var status: String
    /// `description` (required by OpenAPI).
    public var description: String
    /// The media type of the body, `application/json`; nil for no body.
    public var mediaType: String?
    /// The body's schema; nil when the body is not described.
    public var schema: Schema?
    /// Example bodies.
    public var examples: [JSONValue]
    /// The Swift type the body decodes to (`x-swift-type`), `[PetJsonModel]`.
    public var swiftType: String?
    /// The entries of the `examples` map, by name, in document order (``examples`` holds
    /// their values too, after `example`).
    public var namedExamples: [NamedExample] = []
    /// The response headers it documents (`headers`), in document order.
    public var headers: [ResponseHeader] = []
    /// The media types of `content` besides ``mediaType`` (which is JSON when one is), in
    /// document order, each with its schema and examples.
    public var otherContent: [ResponseContent] = []
    /// Where ``mediaType`` stands among the media types of `content`, in document order (0 when
    /// it is the first): what a mock answers a request with no `Accept` with is the first.
    public var mediaTypePosition = 0

    /// Creates a response.
    public init(
        status: String, description: String, mediaType: String? = "application/json", schema: Schema? = nil,
        examples: [JSONValue] = [], swiftType: String? = nil
    ) {
        self.status = status
        self.description = description
        self.mediaType = mediaType
        self.schema = schema
        self.examples = examples
        self.swiftType = swiftType
    }

    /// Whether the status is 2xx (or a `2XX` range).
    public var isSuccess: Bool {
        status.hasPrefix("2")
    }
}

/// One entry of an `examples` map: its name and its `value`.
public struct NamedExample: Sendable, Hashable {
    /// The key in the `examples` map.
    public var name: String
    /// Its `value`.
    public var value: JSONValue

    /// Creates an example.
    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// A response header an operation documents, or a multipart part's (an encoding's `headers`):
/// its name, schema and example.
public struct ResponseHeader: Sendable, Hashable {
    /// The header's name, as written.
    public var name: String
    /// Whether the response always carries it.
    public var required: Bool
    /// Its schema, when documented.
    public var schema: Schema?
    /// Its `example`, else the first of its `examples` (or of its schema's).
    public var example: JSONValue?

    /// Creates a header.
    public init(name: String, required: Bool = false, schema: Schema? = nil, example: JSONValue? = nil) {
        self.name = name
        self.required = required
        self.schema = schema
        self.example = example
    }
}

/// One media type of a response's `content` with its schema and examples.
public struct ResponseContent: Sendable, Hashable {
    /// `text/plain`.
    public var mediaType: String
    /// Its schema, when documented (and readable).
    public var schema: Schema?
    /// `example`, then the values of `examples`.
    public var examples: [JSONValue]
    /// The entries of `examples` by name.
    public var namedExamples: [NamedExample]

    /// Creates a content entry.
    public init(
        mediaType: String, schema: Schema? = nil, examples: [JSONValue] = [], namedExamples: [NamedExample] = []
    ) {
        self.mediaType = mediaType
        self.schema = schema
        self.examples = examples
        self.namedExamples = namedExamples
    }
}
