import HTTPCore

/// Sends ``Endpoint``s over an ``HTTPTransport``: builds the request, validates status and
/// media type, decodes the body and reports each failure as an ``EndpointError``.
///
/// ```swift
/// let client = EndpointClient(baseURL: "http://127.0.0.1:8080/api", transport: CurlTransport())
/// let pets = try await client.send(PetsEndpoint())
/// ```
public struct EndpointClient: Sendable {
    /// The URL paths are appended to, such as `http://127.0.0.1:8080/api`.
    public let baseURL: String
    /// What sends the requests.
    public let transport: any HTTPTransport
    /// Hears requests start and finish, for a load indicator; nil for none.
    public var activityObserver: (any ActivityObserver)?
    /// Shows failures to the user; nil for none.
    public var errorPresenter: (any ErrorPresenter)?

    /// Creates a client.
    public init(
        baseURL: String, transport: any HTTPTransport, activityObserver: (any ActivityObserver)? = nil,
        errorPresenter: (any ErrorPresenter)? = nil
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.activityObserver = activityObserver
        self.errorPresenter = errorPresenter
    }

    /// Sends the endpoint's request and decodes its response.
    public func send<E: Endpoint>(_ endpoint: E) async throws(EndpointError) -> E.Response {
        let request = try request(for: endpoint)
        let observer = endpoint.showsActivity ? activityObserver : nil
        observer?.requestStarted(request)
        let result: Result<E.Response, EndpointError>
        do {
            let response = try await transport.send(request)
            result = Result { () throws(EndpointError) in try validatedResponse(endpoint, response) }
        } catch {
            result = .failure(error.kind == .cancelled ? .cancelled : .transport(error))
        }
        switch result {
        case .success(let value):
            observer?.requestFinished(request, error: nil)
            return value
        case .failure(let error):
            observer?.requestFinished(request, error: error)
            if endpoint.presentsErrors, !isCancellation(error) { errorPresenter?.present(error, for: request) }
            throw error
        }
    }

    /// The HTTP request an endpoint makes: URL, method, headers and encoded body.
    public func request<E: Endpoint>(for endpoint: E) throws(EndpointError) -> HTTPClientRequest {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        let path = endpoint.path.hasPrefix("/") ? endpoint.path : "/" + endpoint.path
        // Keep what a path may hold as is (RFC 3986 §3.3), including escapes already made.
        url += QueryItem.percentEncoded(path, keeping: "/:@!$&'()*+,;=%")
        if !endpoint.query.isEmpty {
            url += "?" + QueryItem.formEncoded(endpoint.query)
        }
        var headers = endpoint.headers
        if endpoint.decoding.expectsJSON && !headers.contains(name: "Accept") {
            headers.add(name: "Accept", value: "application/json")
        }
        var bytes: [UInt8]?
        if let body = endpoint.body {
            let encoded = try body.encoded()
            bytes = encoded.bytes
            if !headers.contains(name: "Content-Type") {
                headers.add(name: "Content-Type", value: encoded.contentType)
            }
        }
        return HTTPClientRequest(
            method: endpoint.method, url: url, headers: headers, body: bytes, timeout: endpoint.timeout)
    }

    private func validatedResponse<E: Endpoint>(
        _ endpoint: E, _ response: HTTPClientResponse
    )
        throws(EndpointError) -> E.Response
    {
        let url = response.url.isEmpty ? baseURL + endpoint.path : response.url
        var response = response
        response.url = url
        if response.status == .serviceUnavailable {
            throw .maintenance(
                serverError: E.ErrorBody.parse(response), retryAfter: response.headers["Retry-After"], url: url)
        }
        guard response.status.isSuccess else {
            throw .http(
                status: response.status, serverError: E.ErrorBody.parse(response),
                excerpt: DecodingDiagnostics.excerpt(ofBody: response.body), url: url)
        }
        if endpoint.decoding.expectsJSON && !Self.isJSON(response.mediaType) {
            let found = response.mediaType.map { "media type '\($0)'" } ?? "no media type"
            throw .notJSON(
                mediaType: response.mediaType, reason: found,
                excerpt: DecodingDiagnostics.excerpt(ofBody: response.body), url: url)
        }
        return try endpoint.decoding.decode(response, keyPath: endpoint.keyPath)
    }

    /// Whether a media type is JSON: `application/json` or a `+json` suffix (RFC 6839).
    static func isJSON(_ mediaType: String?) -> Bool {
        guard let mediaType else { return false }
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    private func isCancellation(_ error: EndpointError) -> Bool {
        if case .cancelled = error { return true }
        return false
    }
}
