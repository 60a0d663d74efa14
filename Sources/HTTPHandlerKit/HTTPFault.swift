import HTTPCore

/// A deliberately broken answer, as stub servers use to test clients (WireMock's faults).
public enum HTTPFault: Sendable, Hashable {
    /// Close the connection without sending anything (WireMock `EMPTY_RESPONSE`).
    case emptyResponse
    /// Reset the connection: close with `SO_LINGER` 0, so the client sees a TCP RST
    /// (WireMock `CONNECTION_RESET_BY_PEER`).
    case connectionReset
    /// Send this many random bytes, then close (WireMock `RANDOM_DATA_THEN_CLOSE`).
    case randomDataThenClose(byteCount: Int = 64)
    /// Send a valid head declaring a chunked body, then bytes that are not a valid chunk,
    /// then close (WireMock `MALFORMED_RESPONSE_CHUNK`).
    case malformedResponseChunk(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders())
    /// Send the response's head with its full `Content-Length`, then only the first
    /// `keepingBytes` of the body, then close.
    case truncatedBody(HTTPResponse, keepingBytes: Int)
}
