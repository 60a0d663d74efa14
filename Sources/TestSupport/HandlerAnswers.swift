import HTTPCore
import HTTPHandlerKit
import HTTPServerKit

extension HTTPHandler {
    /// The handler's answer to one request, read as ``RawResponse`` without a socket (the
    /// request as ``fetch(_:_:_:headers:body:)`` would send it, from 127.0.0.1): the
    /// reply's status, the handler's header fields with the framing field the connection writes
    /// (`Content-Length`, or `Transfer-Encoding: chunked`; not `Date` or `Connection`), and the
    /// body (none for HEAD; never gzip-compressed), delays and dribbles set
    /// aside, a deferred reply waited for: the reply's `DeliveryPlan`, as the connection
    /// follows it. A fault is thrown as the client would see it
    /// (``RawClientError/closed``, or ``RawClientError/reset`` for a reset).
    package func answer(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String = ""
    ) throws(RawClientError) -> RawResponse {
        var fields = HTTPHeaders()
        // `Host: 127.0.0.1` first unless given, as ``fetch(_:_:_:headers:body:)`` sends it.
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { fields.add(name: "Host", value: "127.0.0.1") }
        for (name, value) in headers { fields.add(name: name, value: value) }
        if !body.isEmpty && fields["Content-Length"] == nil {
            fields.add(name: "Content-Length", value: String(body.utf8.count))
        }
        let request = HTTPServerRequest(
            method: HTTPMethod(rawValue: method), target: target, headers: fields, body: Array(body.utf8))
        switch reply(to: request).settled(for: DeliveryRequest(method: request.method)) {
        case nil: throw .closed
        case .fault(let fault): throw fault == .connectionReset ? .reset : .closed
        case .response(let delivery):
            return RawResponse(
                status: delivery.response.status.code, headers: RawHeaders(fields: delivery.clientFields),
                body: delivery.body)
        }
    }

    /// The handler's answer to a GET (see ``answer(_:_:headers:body:)``).
    package func answer(_ target: String, headers: [(String, String)] = []) throws(RawClientError) -> RawResponse {
        try answer("GET", target, headers: headers)
    }
}
