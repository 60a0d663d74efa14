/// What ``RawClient/readOutcome(head:)`` read: a complete response, or how the exchange broke.
package enum RawOutcome: Sendable {
    /// A complete response.
    case response(RawResponse)
    /// The server closed the connection (FIN) before a complete response; what it had sent.
    case closed([UInt8])
    /// The connection was reset (RST) before a complete response; what had arrived.
    case reset([UInt8])
    /// The response's status line, headers or chunked framing are broken; what arrived.
    case malformed([UInt8])

    /// The response, when there is one.
    package var response: RawResponse? {
        if case .response(let response) = self { return response }
        return nil
    }
}
