import HTTPCore
import HTTPHandlerKit
import HTTPServerKit

extension HTTPHandler {
    /// The handler's answer to one request, read as ``RawResponse`` without a socket (the
    /// request as ``fetch(_:_:_:headers:body:)`` would send it, from 127.0.0.1): the
    /// reply's status, the handler's header fields with the framing field the connection writes
    /// (`Content-Length`, or `Transfer-Encoding: chunked`; not `Date` or `Connection`), and the
    /// body (none for HEAD; never gzip-compressed), delays and dribbles set
    /// aside, a deferred reply waited for. A fault is thrown as the client would see it
    /// (``RawClientError/closed``, or ``RawClientError/reset`` for a reset).
    public func answer(
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
        let reply = reply(to: request)
        if let fault = reply.fault() {
            if case .connectionReset = fault { throw .reset }
            throw .closed
        }
        guard let response = reply.response() else { throw .closed }
        var answered = response.headers.map { (name: $0.name, value: $0.value) }
        // The framing field the connection writes (the identity body; gzip is the wire's).
        answered.removeAll { ["content-length", "transfer-encoding"].contains($0.name.lowercased()) }
        if !response.status.forbidsBody {
            if response.framing == .chunked {
                answered.append((name: "Transfer-Encoding", value: "chunked"))
            } else {
                answered.append((name: "Content-Length", value: String(response.body.count)))
            }
        }
        return RawResponse(
            status: response.status.code, headers: RawHeaders(fields: answered),
            body: request.method == .head || response.status.forbidsBody ? [] : response.body)
    }

    /// The handler's answer to a GET (see ``answer(_:_:headers:body:)``).
    public func answer(_ target: String, headers: [(String, String)] = []) throws(RawClientError) -> RawResponse {
        try answer("GET", target, headers: headers)
    }
}
