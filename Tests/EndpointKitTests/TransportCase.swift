import HTTPCore

/// One row of the transport table: what the peer does, what is sent, and what either
/// transport must make of it.
struct TransportCase: Sendable, CustomStringConvertible {
    /// What answers the request.
    enum Peer: Sendable {
        /// ``TransportRoutes`` on a live server.
        case routes
        /// A port that refuses connections.
        case closedPort
        /// Accepts and reads the request, then says nothing.
        case silent
        /// Accepts and reads the request, then resets the connection.
        case reset
        /// Accepts and reads the request, then closes without a byte.
        case closeWithoutAnswer
        /// Accepts and reads the request, then writes bytes that are not HTTP.
        case garbage
        /// Accepts and reads the request, then the test cancels the sending task.
        case cancelAfterRequest
    }

    /// What the transport must return.
    enum Expected: Sendable {
        /// A response with this status and body, holding these header fields (among others).
        case response(status: Int, body: [UInt8], headers: [(String, String)] = [])
        /// A failure of this kind.
        case failure(HTTPClientError.Kind)
    }

    let name: String
    let peer: Peer
    var method: HTTPMethod = .get
    var path = "/"
    var headers: HTTPHeaders = HTTPHeaders()
    var body: [UInt8]?
    var timeout: Duration?
    let expected: Expected
    /// What URLSessionTransport returns instead on FoundationNetworking (Linux), where
    /// URLSession itself differs and the transport cannot make up for it; nil when it does not.
    var onFoundationNetworking: Expected?

    var description: String { name }

    /// What `kind` must return.
    func expected(over kind: TransportKind) -> Expected {
        #if canImport(FoundationNetworking)
        if kind == .urlSession, let onFoundationNetworking { return onFoundationNetworking }
        #endif
        return expected
    }

    /// The request, sent to `baseURL`.
    func request(baseURL: String) -> HTTPClientRequest {
        HTTPClientRequest(method: method, url: baseURL + path, headers: headers, body: body, timeout: timeout)
    }
}

extension TransportCase {
    /// Every case; each runs over both transports with the same expectation.
    static let all: [TransportCase] = [
        TransportCase(
            name: "200 with JSON", peer: .routes, path: "/json",
            expected: .response(
                status: 200, body: Array(#"{"id":1,"name":"one"}"#.utf8),
                headers: [("Content-Type", "application/json")])),
        TransportCase(
            name: "204 with no body", peer: .routes, path: "/no-content", expected: .response(status: 204, body: [])),
        TransportCase(
            name: "200 with an empty body", peer: .routes, path: "/empty",
            expected: .response(status: 200, body: [], headers: [("Content-Length", "0")])),
        TransportCase(
            name: "404 with a text body", peer: .routes, path: "/nowhere",
            expected: .response(status: 404, body: Array("no route".utf8))),
        TransportCase(
            name: "500 with an error body", peer: .routes, path: "/fail",
            expected: .response(status: 500, body: Array(#"{"code":500,"message":"boom"}"#.utf8))),
        TransportCase(
            name: "binary body, every byte value", peer: .routes, path: "/binary",
            expected: .response(
                status: 200, body: TransportRoutes.binary, headers: [("Content-Type", "application/octet-stream")])),
        TransportCase(
            name: "1 MiB body", peer: .routes, path: "/large",
            expected: .response(status: 200, body: TransportRoutes.large)),
        TransportCase(
            name: "request and response headers", peer: .routes, path: "/headers",
            headers: ["X-Echo": "hello, world", "Accept": "application/json"],
            expected: .response(
                status: 200, body: Array("application/json".utf8),
                headers: [("X-Echoed", "hello, world"), ("X-First", "1"), ("X-Second", "2")])),
        TransportCase(
            name: "POST with a JSON body", peer: .routes, method: .post, path: "/echo",
            headers: ["Content-Type": "application/json"], body: Array(#"{"name":"new"}"#.utf8),
            expected: .response(
                status: 200, body: Array(#"POST application/json {"name":"new"}"#.utf8))),
        TransportCase(
            name: "PUT with a body", peer: .routes, method: .put, path: "/echo",
            headers: ["Content-Type": "text/plain"], body: Array("replace".utf8),
            expected: .response(status: 200, body: Array("PUT text/plain replace".utf8))),
        TransportCase(
            name: "PATCH with a body", peer: .routes, method: "PATCH", path: "/echo",
            headers: ["Content-Type": "application/merge-patch+json"], body: Array(#"{"a":null}"#.utf8),
            expected: .response(status: 200, body: Array(#"PATCH application/merge-patch+json {"a":null}"#.utf8))),
        TransportCase(
            name: "DELETE without a body", peer: .routes, method: .delete, path: "/echo",
            expected: .response(status: 200, body: Array("DELETE - ".utf8))),
        // URLSession follows redirects unless told not to; URLSessionTransport refuses them, as
        // CurlTransport does by default, so the 3xx itself is the answer. FoundationNetworking
        // drops the body of a redirect it was told not to follow (Apple's URLSession keeps it),
        // and hands over no bytes to make up for it.
        TransportCase(
            name: "a redirect is not followed", peer: .routes, path: "/moved",
            expected: .response(status: 302, body: Array("see /json".utf8), headers: [("Location", "/json")]),
            onFoundationNetworking: .response(status: 302, body: [], headers: [("Location", "/json")])),
        TransportCase(
            name: "a silent server times out", peer: .silent, timeout: .milliseconds(300),
            expected: .failure(.timedOut)),
        TransportCase(name: "a refused connection", peer: .closedPort, expected: .failure(.couldNotConnect)),
        TransportCase(name: "a reset after the request", peer: .reset, expected: .failure(.connectionClosed)),
        TransportCase(
            name: "a close without an answer", peer: .closeWithoutAnswer, expected: .failure(.connectionClosed)),
        TransportCase(name: "bytes that are not HTTP", peer: .garbage, expected: .failure(.malformedResponse)),
        TransportCase(name: "the task is cancelled", peer: .cancelAfterRequest, expected: .failure(.cancelled)),
    ]
}
