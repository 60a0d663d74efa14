import HTTPCore
import HTTPServer
import JSONKit

/// An in-process server on 127.0.0.1, port 0, answering each route with its status and body
/// (a 404 for anything else). Stops when released.
final class CorpusServer: Sendable {
    let server: HTTPServer

    init(_ routes: [ExampleResponses.Route]) throws {
        server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, eventLoopCount: 1, shutdownGracePeriod: .milliseconds(50))
        ) { request in
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
        try server.start()
    }

    deinit {
        server.stop()
    }

    var baseURL: String { "http://127.0.0.1:\(server.port)" }
}
