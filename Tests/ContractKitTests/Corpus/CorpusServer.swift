import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import TestSupport

/// An in-process server on 127.0.0.1, port 0, answering each route with its status and body
/// (a 404 for anything else). Stops when released.
final class CorpusServer: Sendable {
    let server: LiveHTTPServer

    init(_ routes: [ExampleResponses.Route]) throws {
        server = try LiveHTTPServer { request in
            guard let route = routes.first(where: { $0.matches(method: request.method, path: request.path) }) else {
                return .response(HTTPResponse(status: HTTPStatus(code: 404), text: "no route"))
            }
            guard let body = route.body else {
                return .response(HTTPResponse(status: HTTPStatus(code: route.status)))
            }
            return .response(
                HTTPResponse(
                    status: HTTPStatus(code: route.status), headers: ["Content-Type": "application/json"],
                    body: body.serializedBytes()))
        }
    }

    var baseURL: String { server.baseURL }
}
