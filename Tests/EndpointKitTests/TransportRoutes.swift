import HTTPCore
import HTTPHandlerKit
import HTTPServerKit

/// The live server's answers for the transport table, by path.
enum TransportRoutes {
    /// Every byte value once.
    static let binary = (0...255).map { UInt8($0) }
    /// 1 MiB in a pattern that repeats every 251 bytes, so a dropped or repeated chunk shows.
    static let large = (0..<(1 << 20)).map { UInt8($0 % 251) }

    static func reply(to request: HTTPServerRequest) -> HTTPReply {
        .response(response(to: request))
    }

    private static func response(to request: HTTPServerRequest) -> HTTPResponse {
        switch request.path {
        case "/json":
            HTTPResponse(text: #"{"id":1,"name":"one"}"#, contentType: "application/json")
        case "/no-content":
            HTTPResponse(status: .noContent)
        case "/empty":
            HTTPResponse(status: .ok)
        case "/fail":
            HTTPResponse(
                status: .internalServerError, text: #"{"code":500,"message":"boom"}"#, contentType: "application/json")
        case "/binary":
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: binary)
        case "/large":
            HTTPResponse(headers: ["Content-Type": "application/octet-stream"], body: large)
        case "/headers":
            HTTPResponse(
                headers: HTTPHeaders([
                    ("X-Echoed", request.headers["X-Echo"] ?? "-"), ("X-First", "1"), ("X-Second", "2"),
                    ("Content-Type", "text/plain"),
                ]),
                body: Array((request.headers["Accept"] ?? "-").utf8))
        case "/echo":
            HTTPResponse(
                text: "\(request.method.rawValue) \(request.headers["Content-Type"] ?? "-") "
                    + String(decoding: request.body, as: UTF8.self))
        case "/moved":
            HTTPResponse(
                status: HTTPStatus(code: 302),
                headers: HTTPHeaders([("Location", "/json"), ("Content-Type", "text/plain")]),
                body: Array("see /json".utf8))
        default:
            HTTPResponse(status: .notFound, text: "no route")
        }
    }
}
