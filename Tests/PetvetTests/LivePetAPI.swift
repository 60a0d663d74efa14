import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import TestSupport

/// A small Pet API on a live server (127.0.0.1, port 0) for end-to-end runs: pets and vets
/// from JSON text, plus ways to break it. Keeps the paths asked for; stops when released.
final class LivePetAPI: Sendable {
    let server: LiveHTTPServer

    /// Serves `pets` at `/api/pets` and each vet at `/api/vets/{id}`; other paths get a
    /// `{code, message}` 404. A vet given as `nil` answers an HTML 500 page.
    init(pets: String, vets: [Int: String?], petsStatus: HTTPStatus = .ok) throws {
        server = try LiveHTTPServer { request in
            let path = String(request.path)
            func json(_ text: String, _ status: HTTPStatus = .ok) -> HTTPResponse {
                HTTPResponse(
                    status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8),
                    compression: .gzipIfAccepted)
            }
            if path == "/api/pets" {
                return .response(json(pets, petsStatus))
            } else if path.hasPrefix("/api/vets/"), let id = Int(path.dropFirst("/api/vets/".count)),
                let vet = vets[id]
            {
                if let vet {
                    return .response(json(vet))
                } else {
                    return .response(
                        HTTPResponse(status: .internalServerError, text: "<h1>oops</h1>", contentType: "text/html"))
                }
            } else {
                return .response(json(#"{"code":404,"message":"no such thing"}"#, .notFound))
            }
        }
    }

    var baseURL: String { server.url("/api") }
    var paths: [String] { server.requests.map { String($0.path) } }
}
