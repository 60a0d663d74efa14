import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat

/// What a proxy gives its caller for an upstream result, as faithfully as it can: the
/// response itself; the same broken connection when the upstream closed or reset; a 502
/// (504 for a timeout) with a clear body when there is nothing to pass on.
public enum ProxyReply: Sendable, Hashable {
    /// The upstream's response: status and reason, headers without hop-by-hop fields, the
    /// body decoded from gzip or deflate.
    case response(status: HTTPStatus, headers: HTTPHeaders, body: [UInt8])
    /// A gateway error petmock made: 502, or 504 when the upstream timed out.
    case gatewayError(status: Int, kind: HTTPClientError.Kind, message: String)
    /// The upstream closed without answering or reset the connection; the caller's connection
    /// is broken the same way.
    case fault(StubFault)

    // libcurl's stable result codes for the two ways a connection ends that a caller can be
    // shown again: "empty reply from server" and "failure when receiving data" (a reset).
    private static let curlGotNothing = 52
    private static let curlReceiveError = 56

    /// The reply for an upstream result.
    public init(_ result: UpstreamResult) {
        switch result.outcome {
        case .success(let response):
            let head = HTTPClientResponseHead(headers: response.headers, decoded: response.contentEncoding != nil)
            self = .response(
                status: response.status, headers: HeaderRules.passedResponseHeaders(head), body: response.body)
        case .failure(let error):
            if error.kind == .connectionClosed && error.curlCode == Self.curlGotNothing {
                self = .fault(.emptyResponse)
            } else if error.kind == .connectionClosed && error.curlCode == Self.curlReceiveError {
                self = .fault(.connectionResetByPeer)
            } else {
                let status = error.kind == .timedOut ? 504 : 502
                self = .gatewayError(status: status, kind: error.kind, message: Self.message(error, url: result.url))
            }
        }
    }

    /// The reply with a proxy stub's `headers` set on the upstream's response: each replaces
    /// the upstream's field of that name (one value, never two `Content-Type`s). Gateway errors
    /// and faults are petmock's own and stay as they are.
    func setting(_ stubHeaders: HTTPHeaders) -> ProxyReply {
        guard case .response(let status, var headers, let body) = self, !stubHeaders.isEmpty else { return self }
        for field in stubHeaders { headers.remove(name: field.name) }
        for field in stubHeaders { headers.add(name: field.name, value: field.value) }
        return .response(status: status, headers: headers, body: body)
    }

    /// A gateway error's one-line explanation.
    static func message(_ error: HTTPClientError, url: String) -> String {
        let what: String =
            switch error.kind {
            case .couldNotConnect: "could not connect to the live API"
            case .couldNotResolve: "could not resolve the live API's host"
            case .timedOut: "the live API did not answer in time"
            case .tls: "the TLS handshake with the live API failed"
            case .connectionClosed: "the live API closed the connection before a complete response"
            case .malformedResponse: "the live API's answer is not valid HTTP"
            case .tooLarge: "the live API's response is larger than petmock accepts"
            case .invalidURL: "the live API's URL is not valid"
            case .cancelled: "the request to the live API was cancelled"
            case .other: "the request to the live API failed"
            }
        return "petmock: \(what) (\(url)): \(error.message)"
    }

    /// The header petmock adds to the gateway errors it makes, naming the failure kind.
    public static let errorHeader = "Petmock-Proxy-Error"

    /// A gateway error as a response: `{code, message}` JSON, or text.
    static func gatewayResponse(status: Int, kind: HTTPClientError.Kind, message: String, json: Bool) -> HTTPResponse {
        var headers = HTTPHeaders([(Self.errorHeader, kind.rawValue)])
        if json {
            headers.add(name: "Content-Type", value: "application/json")
            let body: JSONValue = ["code": .int(Int64(status)), "message": .string(message)]
            return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: body.serializedBytes())
        }
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: Array((message + "\n").utf8))
    }

    /// The status the caller saw, or nil for a broken connection.
    public var status: Int? {
        switch self {
        case .response(let status, _, _): status.code
        case .gatewayError(let status, _, _): status
        case .fault: nil
        }
    }

    /// The reply to the caller.
    func httpReply(json: Bool) -> HTTPReply {
        switch self {
        case .response(let status, let headers, let body):
            .response(HTTPResponse(status: status, headers: headers, body: body))
        case .gatewayError(let status, let kind, let message):
            .response(Self.gatewayResponse(status: status, kind: kind, message: message, json: json))
        case .fault(let fault):
            .fault(fault == .emptyResponse ? .emptyResponse : .connectionReset)
        }
    }
}
