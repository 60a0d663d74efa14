/// Why a ``RawClient`` call failed.
package enum RawClientError: Error, Equatable, CustomStringConvertible {
    /// The connection was refused or could not be made; the `errno`.
    case connectFailed(Int32)
    /// Nothing (more) came, or nothing more could be sent, within the client's timeout.
    case timedOut
    /// The connection was reset (RST), or the server had gone when the client sent.
    case reset
    /// The server closed the connection (FIN) before a complete response.
    case closed
    /// A system call failed: its name and `errno`.
    case system(String, Int32)
    /// The response is not HTTP/1.1 as framed: what is wrong, the bad text in quotes.
    case malformed(String)

    package var description: String {
        switch self {
        case .connectFailed(let code): "connect to 127.0.0.1 failed: errno \(code)"
        case .timedOut: "timed out waiting for the server"
        case .reset: "connection reset by the server"
        case .closed: "connection closed by the server before a complete response"
        case .system(let call, let code): "\(call) failed: errno \(code)"
        case .malformed(let what): "malformed response: \(what)"
        }
    }
}
