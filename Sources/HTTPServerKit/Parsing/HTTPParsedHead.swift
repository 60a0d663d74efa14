import HTTPCore
import HTTPHandlerKit

/// A request head as the parser found it, with what the parser decided about the message.
package struct HTTPParsedHead: Sendable, Hashable {
    /// How the body of a request is delimited (RFC 9112 §6.3).
    package enum BodyFraming: Sendable, Hashable {
        /// No body.
        case none
        /// A body of exactly this many bytes (`Content-Length`).
        case length(Int)
        /// A chunked body (`Transfer-Encoding: chunked`).
        case chunked
    }

    /// The request line and header fields.
    package var head: HTTPRequestHead
    /// How the body is delimited.
    package var bodyFraming: BodyFraming
    /// Whether the connection may carry another request after this one (RFC 9112 §9.3).
    package var keepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body (RFC 9110 §10.1.1).
    package var expectsContinue: Bool

    /// Creates a parsed head.
    package init(head: HTTPRequestHead, bodyFraming: BodyFraming, keepAlive: Bool, expectsContinue: Bool) {
        self.head = head
        self.bodyFraming = bodyFraming
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
    }
}
