import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

extension AdminRouter {
    /// `GET /__admin/version`: `{"version": "..."}`, or the bare version as text when the
    /// client accepts `text/plain` (WireMock's `GetVersionTask`).
    func versionResponse(_ headers: HTTPHeaders) -> HTTPResponse {
        if headers.values(name: "Accept").contains(where: { $0.lowercased().contains("text/plain") }) {
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(version.utf8))
        }
        return Self.json(["version": .string(version)])
    }

    /// `GET /__admin/settings`.
    func settings() -> HTTPResponse {
        Self.json(["settings": admin.settings.json])
    }

    /// `PUT`/`POST /__admin/settings` (replace), `PATCH /__admin/settings` (merge) and
    /// WireMock's `PATCH /__admin/settings/extended`.
    func changeSettings(_ body: [UInt8], _ change: GlobalSettings.Change) -> HTTPResponse {
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
