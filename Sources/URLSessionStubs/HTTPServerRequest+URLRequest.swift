import Foundation
import HTTPCore
import HTTPHandlerKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPServerRequest {
    /// The request a server would receive for `request`: its method, its URL's path and query
    /// as an origin-form target, `Host`, its header fields (by name; URLRequest keeps no order),
    /// `Content-Length` for a body, and the body; secure when the URL's scheme is `https`.
    init(_ request: URLRequest, url: URL, body: [UInt8]) {
        let (authority, target) = Self.parts(of: url.absoluteString)
        var headers = HTTPHeaders()
        let fields = (request.allHTTPHeaderFields ?? [:]).map {
            (key: $0.key.lowercased(), name: $0.key, value: $0.value)
        }
        if !authority.isEmpty && !fields.contains(where: { $0.key == "host" }) {
            headers.add(name: "Host", value: String(authority))
        }
        for field in fields.sorted(by: { $0.key < $1.key }) {
            headers.add(name: field.name, value: field.value)
        }
        if !body.isEmpty && !fields.contains(where: { $0.key == "content-length" }) {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        self.init(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), target: target, headers: headers, body: body)
        isSecure = url.scheme?.lowercased() == "https"
    }

    /// The authority of an absolute URL string without its user information (what `Host`
    /// carries), and its origin-form target: the path (`/` when empty) and query, as encoded
    /// in the URL, without the fragment.
    static func parts(of absolute: String) -> (authority: Substring, target: String) {
        let utf8 = absolute.utf8
        var rest = Substring(absolute)
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")), absolute[colon...].hasPrefix("://") {
            rest = absolute[absolute.utf8.index(colon, offsetBy: 3)...]
        }
        let authorityEnd = rest.utf8.firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }
        var authority = rest[..<(authorityEnd ?? rest.endIndex)]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[authority.utf8.index(after: at)...]
        }
        var target = rest[(authorityEnd ?? rest.endIndex)...]
        if let hash = target.utf8.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
        if target.isEmpty { return (authority, "/") }
        return (authority, target.first == "?" ? "/" + target : String(target))
    }
}
