import Foundation
import HTTPCore
import HTTPHandlerKit

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
        // The names kept so far, to join a repeated field whatever the case it is spelled in.
        var names: [String] = []
        for field in response.headers {
            let name = field.name
            if Self.framingNames.contains(where: { name.equalsIgnoringASCIICase($0) }) { continue }
            if let existing = names.first(where: { $0.equalsIgnoringASCIICase(name) }), let value = fields[existing] {
                fields[existing] = value + ", " + field.value
            } else {
                names.append(name)
                fields[name] = field.value
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

    /// The fields the server sets itself, in place of any the handler set.
    private static let framingNames = ["Content-Length", "Transfer-Encoding", "Connection"]
}
