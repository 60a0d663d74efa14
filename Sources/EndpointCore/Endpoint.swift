import HTTPCore

/// One operation of an HTTP API: what to send and how to read the answer, apart from any
/// transport (the seeds' `RequestProtocol` and `RestApiMethod`).
///
/// Only `path` is required when the response is `Decodable`; everything else has a default.
///
/// ```swift
/// struct SearchPets: Endpoint {
///     typealias Response = [PetJsonModel]
///     let name: String
///     var path: String { "/pets/search" }
///     var query: [QueryItem] { [QueryItem("name", name)] }
///     var keyPath: String? { "items" }   // the body is {"items": [...]}
/// }
/// let pets = try await client.send(SearchPets(name: "Rex"))
/// ```
public protocol Endpoint: Sendable {
    /// What a successful response decodes to.
    associatedtype Response: Sendable
    /// The error body this endpoint's server sends with a failing status.
    associatedtype ErrorBody: APIErrorBody = APIErrorMessage

    /// The request method; `GET` by default.
    var method: HTTPMethod { get }
    /// The path under the base URL, such as `/vets/3`; characters a path cannot hold are
    /// percent-encoded when the URL is built.
    var path: String { get }
    /// The query parameters, percent-encoded when the URL is built; none by default.
    var query: [QueryItem] { get }
    /// Extra header fields; none by default (`Accept` and `Content-Type` are added).
    var headers: HTTPHeaders { get }
    /// The request body; none by default.
    var body: RequestBody? { get }
    /// Dot-separated keys of the envelope around the value (`items` for `{"items": [...]}`);
    /// nil (the default) decodes the whole body.
    var keyPath: String? { get }
    /// How the response body becomes a `Response`; JSON for a `Decodable` response, text
    /// for `String`.
    var decoding: ResponseDecoding<Response> { get }
    /// The total time allowed, overriding the transport's; nil by default.
    var timeout: Duration? { get }
    /// Whether the activity observer hears about this request (the seeds' `indicator:`).
    var showsActivity: Bool { get }
    /// Whether a failure goes to the error presenter (the seeds' `errorAlert:`).
    var presentsErrors: Bool { get }
}

extension Endpoint {
    public var method: HTTPMethod { .get }
    public var query: [QueryItem] { [] }
    public var headers: HTTPHeaders { HTTPHeaders() }
    public var body: RequestBody? { nil }
    public var keyPath: String? { nil }
    public var timeout: Duration? { nil }
    public var showsActivity: Bool { true }
    public var presentsErrors: Bool { true }
}

extension Endpoint where Response: Decodable {
    public var decoding: ResponseDecoding<Response> { .json() }
}

extension Endpoint where Response == String {
    public var decoding: ResponseDecoding<Response> { .string }
}
