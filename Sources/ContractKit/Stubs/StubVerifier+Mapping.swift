import HTTPCore
import StubFormat

extension StubVerifier {
    /// How a finding's `url` names a mapping: `Stubs/mappings/vets.json[2]: GET /api/vets/2`,
    /// the method as written (`ANY`, `oneOf GET, HEAD`).
    static func label(_ entry: StubEntry) -> String {
        let path = entry.path.description
        let prefix = "$.mappings"
        let place = path.hasPrefix(prefix) ? entry.file + path.dropFirst(prefix.count) : entry.file
        let request = entry.mapping.request
        let method = request.method?.rawValue ?? request.methods?.description ?? "ANY"
        return "\(place): \(method) \(urlPath(of: request) ?? "(pattern)")"
    }

    /// The URL path as written (`url` without its query, `urlPath` or `urlPathTemplate`), or
    /// nil when the mapping matches by pattern or any URL.
    static func urlPath(of request: RequestPattern) -> String? {
        switch request.url {
        case .url(let url)?: String(url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        case .urlPath(let path)?, .urlPathTemplate(let path)?: path
        case .urlPattern?, .urlPathPattern?, nil: nil
        }
    }

    /// The methods whose operations a mapping's response is checked against: the one it
    /// names, each of `oneOf`, or GET for one that answers any method (`ANY`, or `noneOf`
    /// without GET); nil when it answers every method but GET.
    static func methods(of request: RequestPattern) -> [HTTPMethod]? {
        if let method = request.method { return [method] }
        switch request.methods {
        case .oneOf(let methods)?: return methods
        case .noneOf(let excluded)?: return excluded.contains(.get) ? nil : [.get]
        case nil: return [.get]
        }
    }
}

extension ResponseBody {
    /// Whether the body comes from `__files/`.
    var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}
