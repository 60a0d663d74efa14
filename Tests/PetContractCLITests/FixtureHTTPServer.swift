import HTTPCore
import HTTPServerKit
import TestSupport

/// Fixed responses by path on a live server (127.0.0.1, port 0) for the CLI's live tests;
/// ready when `init` returns. With `requiredHeader` (a header line, `Name: value`), a request
/// without that exact field gets 401.
final class FixtureHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int
        var contentType: String
        var body: String
    }

    private let live: LiveHTTPServer

    init(routes: [String: Response], requiredHeader: String? = nil) throws {
        let required = requiredHeader.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), String(parts.count > 1 ? parts[1].drop { $0 == " " } : ""))
        }
        live = try LiveHTTPServer { request in
            let response: Response
            if let required, request.headers[required.name] != required.value {
                response = Response(status: 401, contentType: "text/plain", body: "no \(requiredHeader ?? "")")
            } else {
                response =
                    routes[String(request.path)] ?? Response(status: 404, contentType: "text/plain", body: "no route")
            }
            return .response(
                HTTPResponse(
                    status: HTTPStatus(code: response.status), headers: ["Content-Type": response.contentType],
                    body: Array(response.body.utf8)))
        }
    }

    var baseURL: String { live.baseURL }

    func stop() {
        live.stop()
    }
}
