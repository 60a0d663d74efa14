import HTTPCore
import HTTPHandlerKit
import HTTPServerKit

/// A handler with a fixed answer per path, for a ``LiveHTTPServer`` standing in for an API:
/// any other path gets 404. With `requiredHeader` (a header line, `Name: value`), a request
/// without that exact field gets 401 instead.
///
/// ```swift
/// let api = try LiveHTTPServer(handler: FixedRoutes(["/api/pets": .init(body: "[]")]))
/// ```
package struct FixedRoutes: HTTPHandler {
    /// One path's answer.
    package struct Route: Sendable {
        package var status: Int
        package var contentType: String
        package var body: String

        /// An answer with `body`; JSON with 200 unless told.
        package init(status: Int = 200, contentType: String = "application/json", body: String) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    private let routes: [String: Route]
    private let required: (line: String, name: String, value: String)?

    /// Answers `routes` by path, refusing requests without `requiredHeader` when given.
    package init(_ routes: [String: Route], requiredHeader: String? = nil) {
        self.routes = routes
        required = requiredHeader.map { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (line, String(parts[0]), String(parts.count > 1 ? parts[1].drop { $0 == " " } : ""))
        }
    }

    package func reply(to request: HTTPServerRequest) -> HTTPReply {
        let route: Route
        if let required, request.headers[required.name] != required.value {
            route = Route(status: 401, contentType: "text/plain", body: "no \(required.line)")
        } else {
            route = routes[String(request.path)] ?? Route(status: 404, contentType: "text/plain", body: "no route")
        }
        return .response(
            HTTPResponse(
                status: HTTPStatus(code: route.status), headers: ["Content-Type": route.contentType],
                body: Array(route.body.utf8)))
    }
}
