import HTTPClient
import HTTPCore
import TestSupport

/// A `petapi serve` process on a free port over a database in a temporary folder.
final class LivePetAPIProcess: Sendable {
    let process: ServerProcess
    let directory: TemporaryDirectory?
    /// The API's base URL, `http://127.0.0.1:PORT/api`.
    let api: String

    /// Starts petapi over `database`, or over a fresh one removed by ``close()``; a new
    /// database is seeded from `seed` when given.
    init(database: String? = nil, seed: String? = nil) async throws {
        let owned = database == nil ? try TemporaryDirectory(prefix: "petapi") : nil
        directory = owned
        let path = database ?? owned?.file("petapi.sqlite") ?? ""
        process = try await ServerProcess(
            "petapi", ["serve", "--port", "0", "--db", path] + (seed.map { ["--seed", $0] } ?? []))
        api = process.url + "/api"
    }

    /// Sends a request to the API and returns its status.
    func call(_ method: HTTPMethod, _ path: String, _ json: String? = nil) async throws -> Int {
        let request = HTTPClientRequest(
            method: method, url: api + path, headers: json == nil ? [:] : ["Content-Type": "application/json"],
            body: json.map { Array($0.utf8) })
        return try await CurlTransport().send(request).status.code
    }

    /// Ends the process (without waiting) and removes its database.
    func close() {
        process.terminate()
        directory?.remove()
    }
}
