import Foundation
import HTTPCore
import HTTPServerKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// The response URLSession would give for `response` from a server: its status and header
    /// fields (repeated fields joined with `, `, as `HTTPURLResponse` keeps one value a name),
    /// HTTP/1.1, and the framing field the server would send in place of any the handler set
    /// (`Content-Length`, or `Transfer-Encoding: chunked` for a chunked or dribbled body).
    static func from(_ response: HTTPResponse, url: URL, chunked: Bool) -> HTTPURLResponse? {
        var fields: [String: String] = [:]
        var names: [String: String] = [:]
        for field in response.headers {
            let key = field.name.lowercased()
            if key == "content-length" || key == "transfer-encoding" || key == "connection" { continue }
            if let name = names[key], let existing = fields[name] {
                fields[name] = existing + ", " + field.value
            } else {
                names[key] = field.name
                fields[field.name] = field.value
            }
        }
        if !response.status.forbidsBody {
            if chunked || response.framing == .chunked {
                fields["Transfer-Encoding"] = "chunked"
            } else {
                fields["Content-Length"] = String(response.body.count)
            }
        }
        return HTTPURLResponse(
            url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)
    }
}
