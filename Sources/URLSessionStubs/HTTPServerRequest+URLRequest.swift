import Foundation
import HTTPCore
import HTTPServerKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPServerRequest {
    /// The request a server would receive for `request`: its method, its URL's path and query
    /// as an origin-form target, `Host`, its header fields (by name; URLRequest keeps no order)
    /// without the host's token, `Content-Length` for a body, and the body.
    init(_ request: URLRequest, url: URL, body: [UInt8]) {
        var headers = HTTPHeaders()
        let fields = request.allHTTPHeaderFields ?? [:]
        if !fields.keys.contains(where: { $0.caseInsensitiveCompare("Host") == .orderedSame }), let host = url.host {
            headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        }
        var hasLength = false
        for (name, value) in fields.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            if name.caseInsensitiveCompare(StubSessionRegistry.tokenHeader) == .orderedSame { continue }
            if name.caseInsensitiveCompare("Content-Length") == .orderedSame { hasLength = true }
            headers.add(name: name, value: value)
        }
        if !body.isEmpty && !hasLength { headers.add(name: "Content-Length", value: String(body.count)) }
        self.init(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), target: Self.target(of: url),
            headers: headers, body: body)
    }

    /// The origin-form target of `url`: its path (`/` when empty) and query, percent-encoded as sent.
    static func target(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let query = components.percentEncodedQuery else { return path }
        return path + "?" + query
    }
}
