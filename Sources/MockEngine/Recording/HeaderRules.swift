import HTTPCore

/// Which header fields cross the proxy and which reach a recorded mapping.
enum HeaderRules {
    /// Hop-by-hop fields: they describe one connection, not the message (RFC 9110 §7.6.1), so
    /// a proxy never forwards them, and a stub never replays them.
    static let hopByHop = [
        "Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "TE", "Trailer", "Upgrade",
        "Proxy-Authenticate",
    ]

    /// The request fields sent upstream: hop-by-hop ones, `Host` (the target's own is sent),
    /// framing, `Expect` and `Accept-Encoding` (the transport negotiates gzip itself) dropped.
    static func forwardedRequestHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        filtered(headers, dropping: droppedRequestFields)
    }

    private static let droppedRequestFields = hopByHop + ["Host", "Content-Length", "Expect", "Accept-Encoding"]
    private static let droppedResponseFields = hopByHop + ["Content-Length"]
    private static let droppedDecodedResponseFields = droppedResponseFields + ["Content-Encoding"]

    /// The response fields passed to the caller: hop-by-hop ones and framing dropped (the
    /// server frames the body itself), and `Content-Encoding` when the body arrived decoded.
    static func passedResponseHeaders(_ response: HTTPClientResponseHead) -> HTTPHeaders {
        filtered(response.headers, dropping: response.decoded ? droppedDecodedResponseFields : droppedResponseFields)
    }

    /// The response fields a mapping keeps: those passed to the caller, minus `Date` (the stub
    /// server sends a fresh one) and every redacted name.
    static func recordedResponseHeaders(
        _ response: HTTPClientResponseHead, configuration: RecordingConfiguration
    ) -> HTTPHeaders {
        var headers = filtered(passedResponseHeaders(response), dropping: ["Date"])
        headers = HTTPHeaders(headers.fields.filter { !configuration.isRedacted($0.name) })
        return headers
    }

    /// The headers without `names` and without the names the `Connection` field lists.
    static func filtered(_ headers: HTTPHeaders, dropping names: [String]) -> HTTPHeaders {
        // The `Connection` values are read in place for each field (a handful): no list made.
        // Most `Connection` fields list only names dropped anyway (`keep-alive`): then no field
        // needs looking up in them.
        let listsMore = headers.fields.contains { field in
            field.name.equalsIgnoringASCIICase("Connection")
                && HTTPHeaders.listElements(of: field.value) { token in
                    !names.contains { $0.equalsIgnoringASCIICase(token) }
                }
        }
        var kept: [HTTPHeaders.Field] = []
        kept.reserveCapacity(headers.count)
        for field in headers.fields
        where !names.contains(where: { $0.equalsIgnoringASCIICase(field.name) })
            && !(listsMore
                && headers.fields.contains(where: { listing in
                    listing.name.equalsIgnoringASCIICase("Connection")
                        && HTTPHeaders.listElements(of: listing.value) { $0.equalsIgnoringASCIICase(field.name) }
                }))
        {
            kept.append(field)
        }
        return HTTPHeaders(kept)
    }
}

/// The parts of an upstream response the header rules look at.
struct HTTPClientResponseHead {
    let headers: HTTPHeaders
    /// Whether the transport decoded a content coding, so `Content-Encoding` no longer holds.
    let decoded: Bool
}
