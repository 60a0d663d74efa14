import HTTPHandlerKit

/// Answers the requests no stub matches: the engine's second reply source (petmock serving an
/// OpenAPI document is one). Stubs always come first.
public protocol FallbackReplySource: Sendable {
    /// The answer to a request no stub matched, prepared once and reused; nil leaves the
    /// request unmatched (the near-miss 404, or `--proxy-unmatched`).
    func reply(to request: HTTPServerRequest) -> PreparedResponse?
}
