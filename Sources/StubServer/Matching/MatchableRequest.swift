import HTTPCore
import HTTPServer
import JSONKit

/// A request as matching sees it: method, raw target, headers and body, with the query, the
/// body text and the body's JSON worked out once, on first use. Used for live requests and
/// for journal entries alike; confined to one thread.
final class MatchableRequest {
    let method: HTTPMethod
    /// The origin-form target, path and query, still percent-encoded.
    let target: Substring
    /// The path, still percent-encoded.
    let path: Substring
    let headers: HTTPHeaders
    let body: [UInt8]

    init(method: HTTPMethod, target: Substring, headers: HTTPHeaders, body: [UInt8]) {
        self.method = method
        self.target = target
        if let question = target.firstIndex(of: "?") {
            path = target[..<question]
            rawQuery = target[target.index(after: question)...]
        } else {
            path = target
            rawQuery = nil
        }
        self.headers = headers
        self.body = body
    }

    convenience init(_ request: HTTPServerRequest) {
        self.init(method: request.method, target: request.head.originForm, headers: request.headers, body: request.body)
    }

    convenience init(_ logged: LoggedRequest) {
        self.init(method: logged.method, target: Substring(logged.url), headers: logged.headers, body: logged.body)
    }

    private let rawQuery: Substring?

    /// The decoded query parameters, in order.
    private(set) lazy var queryParameters: [(name: String, value: String)] = rawQuery.map {
        QueryParameters.parse($0)
    } ?? []

    /// The decoded path, for `urlPath` equality when the raw path has escapes.
    private(set) lazy var decodedPath: String? = path.contains("%") ? path.removingPercentEncoding() : nil

    /// The body as text (invalid UTF-8 repaired).
    private(set) lazy var bodyText: String = String(decoding: body, as: UTF8.self)

    /// The body as JSON, or nil when it is not JSON.
    private(set) lazy var bodyJSON: JSONValue? = try? JSONValue(parsing: body)

    /// Every value of the query parameter.
    func queryValues(_ name: String) -> [String] {
        queryParameters.filter { $0.name == name }.map(\.value)
    }

    /// The first segment of the path (`api` for `/api/pets`).
    var firstSegment: Substring {
        let rest = path.dropFirst()
        return rest.firstIndex(of: "/").map { rest[..<$0] } ?? rest
    }
}
