import HTTPCore
import HTTPHandlerKit

/// A transport that answers from a handler in this process, with no socket: each request is
/// handed to the handler as the server would hand it (its target taken from the URL, `Host`
/// added unless given) and its reply read as ``HTTPReply/response(waitingAtMost:)`` reads it
/// (delays set aside, never gzip-compressed); a fault is a closed connection.
///
/// ```swift
/// let verifier = LiveVerifier(contract: contract, transport: HandlerTransport(handler))
/// ```
package struct HandlerTransport: HTTPTransport {
    private let handler: any HTTPHandler

    /// Answers from `handler`.
    package init(_ handler: any HTTPHandler) {
        self.handler = handler
    }

    package func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        var headers = request.headers
        if !headers.contains(name: "Host") { headers.add(name: "Host", value: "127.0.0.1") }
        let body = request.body ?? []
        if !body.isEmpty && !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        let served = HTTPServerRequest(
            method: request.method, target: Self.target(of: request.url), headers: headers, body: body)
        guard
            case .response(let delivery)? = handler.reply(to: served).settled(
                for: DeliveryRequest(method: request.method))
        else {
            throw HTTPClientError(kind: .connectionClosed, url: request.url, message: "the handler sent a fault")
        }
        return HTTPClientResponse(
            status: delivery.response.status, headers: delivery.response.headers, body: delivery.body, url: request.url)
    }

    /// The origin-form target of a URL: `/v2/items?limit=1` for `http://host:80/v2/items?limit=1`.
    static func target(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let target = String(rest[slash...])
        return target.hasPrefix("?") ? "/" + target : target
    }
}
