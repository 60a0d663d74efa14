import HTTPCore
import HTTPServer
import Synchronization

/// A small Pet API on our HTTPServer (127.0.0.1, port 0) for end-to-end runs: pets and vets
/// from JSON text, plus ways to break it. Counts requests; stops when released.
final class PetAPIServer: Sendable {
    private final class Counter: Sendable {
        let paths = Mutex<[String]>([])
    }

    let server: HTTPServer
    private let counter = Counter()

    /// Serves `pets` at `/api/pets` and each vet at `/api/vets/{id}`; other paths get a
    /// `{code, message}` 404. A vet given as `nil` answers an HTML 500 page.
    init(pets: String, vets: [Int: String?], petsStatus: HTTPStatus = .ok) throws {
        let counter = self.counter
        server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, eventLoopCount: 1, shutdownGracePeriod: .milliseconds(50))
        ) { request in
            let path = String(request.path)
            counter.paths.withLock { $0.append(path) }
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
        try server.start()
    }

    deinit {
        server.stop()
    }

    var baseURL: String { "http://127.0.0.1:\(server.port)/api" }
    var paths: [String] { counter.paths.withLock { $0 } }
}
