import HTTPCore

extension HTTPClientResponse {
    /// A response with a JSON body given as text.
    static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPClientResponse {
        HTTPClientResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }
}
