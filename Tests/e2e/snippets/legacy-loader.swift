// The app's code that calls URLSession.shared.
import Testing
import URLSessionStubs

struct LegacyLoader {
    func load() async throws -> String {
        guard let url = URL(string: "https://api.example/legacy") else { throw URLError(.badURL) }
        let (data, _) = try await URLSession.shared.data(from: url)
        return String(decoding: data, as: UTF8.self)
    }
}
