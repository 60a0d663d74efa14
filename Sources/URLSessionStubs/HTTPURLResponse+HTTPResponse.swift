import Foundation
import HTTPCore
import HTTPHandlerKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// The response URLSession would give for `delivery` from a server: its status and the
    /// fields a client reads (the handler's, with the framing field the plan gives in place of
    /// any the handler set; repeated fields joined with `, `, as `HTTPURLResponse` keeps one
    /// value a name), HTTP/1.1.
    static func from(_ delivery: ResponseDelivery, url: URL) -> HTTPURLResponse? {
        var fields: [String: String] = [:]
        // The names kept so far, to join a repeated field whatever the case it is spelled in.
        var names: [String] = []
        for field in delivery.clientFields {
            let name = field.name
            if let existing = names.first(where: { $0.equalsIgnoringASCIICase(name) }), let value = fields[existing] {
                fields[existing] = value + ", " + field.value
            } else {
                names.append(name)
                fields[name] = field.value
            }
        }
        return HTTPURLResponse(
            url: url, statusCode: delivery.response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)
    }
}
