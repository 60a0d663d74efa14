import HTTPCore
import HTTPHandlerKit
import JSONKit

extension AdminRouter {
    /// `GET /__admin/version`: `{"version": "..."}`, or the bare version as text when the
    /// client accepts `text/plain` (WireMock's `GetVersionTask`).
    func versionResponse(_ headers: HTTPHeaders) -> HTTPResponse {
        if headers.values(name: "Accept").contains(where: { $0.lowercased().contains("text/plain") }) {
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(version.utf8))
        }
        return Self.json(["version": .string(version)])
    }

    /// `/__admin/settings` (and WireMock's `PATCH /__admin/settings/extended`), or nil when
    /// the route is another.
    func settingsResponse(_ route: Route, body: [UInt8]) -> HTTPResponse? {
        let change: GlobalSettings.Change
        if route.is(.get, "settings") {
            return Self.json(["settings": admin.settings.json])
        } else if route.is(.put, "settings") || route.is(.post, "settings") {
            change = .replace
        } else if route.is(.patch, "settings") {
            change = .merge
        } else if route.is(.patch, "settings", "extended") {
            change = .mergeExtended
        } else {
            return nil
        }
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            do throws(AdminError) {
                return Self.json(["settings": try admin.changeSettings(json, change).json])
            } catch {
                return Self.failure(error)
            }
        }
    }
}
