import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat

extension AdminRouter {
    /// `/__admin/files` (WireMock's): list, read, write and remove the body files under
    /// `__files/`; nil when the route is another.
    func filesResponse(_ route: Route, body: [UInt8]) -> HTTPResponse? {
        do throws(AdminError) {
            if route.is(.get, "files") {
                return Self.json(.array(try admin.bodyFileNames().map(JSONValue.string)))
            }
            guard route.segments.count > 1 else { return nil }
            let name = route.segments.dropFirst().joined(separator: "/")
            switch route.method {
            case .get:
                let bytes = try admin.bodyFile(name)
                return HTTPResponse(
                    status: .ok, headers: ["Content-Type": "application/octet-stream"], body: bytes)
            case .put:
                try admin.writeBodyFile(name, body)
                // WireMock answers with the contents, as a JSON string (base64).
                return Self.json(.string(Base64.encode(body)))
            case .delete:
                try admin.removeBodyFile(name)
                return Self.json([:])
            default:
                return nil
            }
        } catch {
            return Self.failure(error)
        }
    }
}
