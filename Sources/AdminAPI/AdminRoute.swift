import HTTPCore
import HTTPHandlerKit
import MockEngine

/// One admin route: a method, a path under `/__admin` read through the one ``PathTemplate``
/// (`/mappings/{id}`; a last segment `{name...}` takes the rest of the path, one segment or
/// more, as `name`), and the handler. ``AdminRouter/routes`` declares them all.
struct AdminRoute: Sendable {
    let method: HTTPMethod
    /// The path as declared.
    let declared: String
    let path: PathTemplate
    /// The name the rest of the path is captured as, for a route that takes it.
    let rest: String?
    let handle: @Sendable (AdminRouter, AdminCall) -> HTTPResponse

    init(
        _ method: HTTPMethod, _ declared: String, _ handle: @escaping @Sendable (AdminRouter, AdminCall) -> HTTPResponse
    ) {
        self.method = method
        self.declared = declared
        var template = declared
        if declared.hasSuffix("...}"), let open = declared.lastIndex(of: "{") {
            rest = String(declared[declared.index(after: open)...].dropLast(4))
            template = String(declared[..<open].dropLast())
        } else {
            rest = nil
        }
        path = PathTemplate(document: template)
        self.handle = handle
    }

    /// The path's variables when `parts` (the segments after `/__admin`) fit the route.
    func match(_ parts: [Substring]) -> [String: String]? {
        guard let rest else { return path.match(parts: parts) }
        let count = path.segments.count
        guard parts.count > count, var values = path.match(parts: Array(parts.prefix(count))) else { return nil }
        values[rest] = parts.dropFirst(count).map { $0.removingPercentEncoding() ?? String($0) }.joined(separator: "/")
        return values
    }

    /// How the route reads beside the others of its first segment: `POST start` for
    /// `/recordings/start`, the method alone for the segment itself.
    var shortForm: String {
        let rest = declared.split(separator: "/").dropFirst().joined(separator: "/")
        return rest.isEmpty ? method.rawValue : "\(method.rawValue) \(rest)"
    }
}

/// One admin request as its route's handler sees it.
struct AdminCall {
    let request: HTTPServerRequest
    /// The path's variables, percent-decoded.
    let parameters: [String: String]

    var body: [UInt8] { request.body }
    var headers: HTTPHeaders { request.headers }
    /// The query's parameters, decoded, in order.
    var query: [(name: String, value: String)] { request.query.map { QueryParameters.parse($0) } ?? [] }

    /// The variable `name` of the route's path.
    subscript(_ name: String) -> String { parameters[name] ?? "" }
}
