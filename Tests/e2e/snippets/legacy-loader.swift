// The app's code that calls URLSession.shared.
import Testing
import URLSessionStubs

struct LegacyLoader {
    func load() async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example/legacy")!)
        return String(decoding: data, as: UTF8.self)
    }
}
