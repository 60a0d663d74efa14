import HTTPCore
import HTTPHandlerKit
import HTTPServerKit

/// A handler that answers with what it received: the body as the body, the method, target
/// and header fields as response fields.
struct EchoHandler: HTTPHandler {
    func reply(to request: HTTPServerRequest) -> HTTPReply {
        var headers = HTTPHeaders([("X-Method", request.method.rawValue), ("X-Target", request.head.target)])
        headers.add(name: "X-Header-Names", value: request.headers.map(\.name).joined(separator: ","))
        for field in request.headers { headers.add(name: "X-Echo-" + field.name, value: field.value) }
        return .response(HTTPResponse(headers: headers, body: request.body))
    }
}
