/// What the loop does with a socket it accepted, as a value, so that an HTTPS listener never
/// speaks plain HTTP: neither to refuse a client nor to serve one whose TLS session could not
/// be made.
enum AcceptDecision: Equatable {
    /// Served as plain HTTP (a plain listener).
    case servePlain
    /// Served through the connection layer made for it (an HTTPS listener's TLS session).
    case serveLayered
    /// Told `503 Service Unavailable` in plain HTTP, then closed (a plain listener with no
    /// place for it).
    case answerOverload
    /// Closed at once with an RST (`SO_LINGER` 0), not a byte sent: a TLS client would read a
    /// plain-HTTP answer as a broken handshake, and sees a reset connection instead.
    case reset

    /// A client the loop has no place for (the connection limit, or the descriptor limit with
    /// nothing to close): a 503 on a plain listener, a reset on an HTTPS one.
    static func refusal(servesTLS: Bool) -> AcceptDecision {
        servesTLS ? .reset : .answerOverload
    }

    /// A client the loop has a place for: through its layer on an HTTPS listener, and reset
    /// when the layer could not be made (OpenSSL's `SSL_new` failed), never served as plain
    /// HTTP on the HTTPS port.
    static func admission(servesTLS: Bool, layerMade: Bool) -> AcceptDecision {
        guard servesTLS else { return .servePlain }
        return layerMade ? .serveLayered : .reset
    }
}
