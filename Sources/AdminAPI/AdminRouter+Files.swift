import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat

extension AdminRouter {
    /// `GET /__admin/files` (WireMock's): the body files under `__files/`.
    func listBodyFiles() -> HTTPResponse {
        files { () throws(AdminError) in Self.json(.array(try admin.bodyFileNames().map(JSONValue.string))) }
    }

    /// `GET /__admin/files/NAME`: the body file's bytes.
    func bodyFile(_ name: String) -> HTTPResponse {
        files { () throws(AdminError) in
            HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/octet-stream"], body: try admin.bodyFile(name))
        }
    }

    /// `PUT /__admin/files/NAME`: writes the body file; WireMock answers with the contents, as
    /// a JSON string (base64).
    func writeBodyFile(_ name: String, _ body: [UInt8]) -> HTTPResponse {
        files { () throws(AdminError) in
            try admin.writeBodyFile(name, body)
            return Self.json(.string(Base64.encode(body)))
        }
    }

    /// `DELETE /__admin/files/NAME`.
    func removeBodyFile(_ name: String) -> HTTPResponse {
        files { () throws(AdminError) in
            try admin.removeBodyFile(name)
            return Self.json([:])
        }
    }

    private func files(_ action: () throws(AdminError) -> HTTPResponse) -> HTTPResponse {
        do throws(AdminError) {
            return try action()
        } catch {
            return Self.failure(error)
        }
    }
}
