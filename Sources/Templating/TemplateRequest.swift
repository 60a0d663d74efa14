import HTTPCore

/// The request as templates see it (WireMock's `request` model): `url`, `path` (with
/// `path.[n]` and the `urlPathTemplate` parameters by name), `pathSegments`, `query`,
/// `headers` (any case), `cookies`, `method`, `baseUrl`, `body`. Members are worked out when
/// a template reads them.
package final class TemplateRequest: TemplateNode {
    /// The method, as sent.
    package let method: String
    /// The origin-form target: path and query, still percent-encoded.
    package var url: String { String(target) }
    /// ``url`` as the caller gave it (a server's is a slice of the request head: no copy).
    private let target: Substring
    /// The header fields.
    package let headers: HTTPHeaders
    /// The body.
    package let body: [UInt8]
    /// `http://host:port`, from the `Host` field (or the listening address); when the
    /// caller gives none, `http://` (`https://` for a request that came over TLS) and the
    /// `Host` field (`localhost` without one), made when first read.
    package private(set) lazy var baseURL: String =
        (secure ? "https://" : "http://") + (headers["Host"] ?? "localhost")
    /// Whether the request came over TLS: the scheme of a ``baseURL`` the caller did not give.
    private let secure: Bool
    /// The `urlPathTemplate` variables, decoded.
    package let pathParameters: [String: String]
    /// The client's address (worked out when first read, with the lazy initialiser).
    package private(set) lazy var clientIP: String = clientIPSource?() ?? ""
    private let clientIPSource: (() -> String)?
    /// Whether the stub matched the path with `urlPathTemplate` (see ``PathNode``).
    package let pathTemplated: Bool

    /// Creates the model of one request; `queryParameters`, when the caller has them decoded
    /// already, saves parsing the query again; `pathTemplated` when the stub matched with
    /// `urlPathTemplate`.
    package convenience init(
        method: String, url: String, headers: HTTPHeaders, body: [UInt8], baseURL: String,
        pathParameters: [String: String] = [:], clientIP: String = "",
        queryParameters: [(name: String, value: String)]? = nil, pathTemplated: Bool = false, secure: Bool = false
    ) {
        self.init(
            method: method, target: url[...], headers: headers, body: body, baseURL: baseURL,
            pathParameters: pathParameters, clientIP: nil, query: queryParameters.map { .given($0) } ?? .fromTarget,
            pathTemplated: pathTemplated, secure: secure)
        self.clientIP = clientIP
    }

    /// Creates the model of one request as the initialiser above does, the client's address
    /// and the decoded query given as functions called only if a template reads them (a server
    /// has them at hand, but working them out costs); a nil `baseURL` is made from the `Host`
    /// field if a template reads it.
    package convenience init(
        method: String, url: String, headers: HTTPHeaders, body: [UInt8], baseURL: String?,
        pathParameters: [String: String] = [:], clientIP: @escaping () -> String,
        queryParameters: @escaping () -> [(name: String, value: String)], pathTemplated: Bool = false,
        secure: Bool = false
    ) {
        self.init(
            method: method, target: url[...], headers: headers, body: body, baseURL: baseURL,
            pathParameters: pathParameters, clientIP: clientIP, query: .later(queryParameters),
            pathTemplated: pathTemplated, secure: secure)
    }

    /// Creates the model of one request as the initialiser with functions does, the decoded
    /// query given as it is (a server that matched the request has it at hand already), and
    /// `path`, when given, the part of `url` before its `?` (found already by the same server).
    package convenience init(
        method: String, url: Substring, headers: HTTPHeaders, body: [UInt8], baseURL: String?,
        pathParameters: [String: String] = [:], clientIP: @escaping () -> String,
        queryParameters: [(name: String, value: String)], pathTemplated: Bool = false, path: Substring? = nil,
        secure: Bool = false
    ) {
        self.init(
            method: method, target: url, headers: headers, body: body, baseURL: baseURL,
            pathParameters: pathParameters, clientIP: clientIP, query: .given(queryParameters),
            pathTemplated: pathTemplated, secure: secure)
        knownPath = path
    }

    /// Where the decoded query comes from.
    private enum QuerySource {
        case given([(name: String, value: String)])
        case later(() -> [(name: String, value: String)])
        case fromTarget
    }

    /// The one initialiser the public ones share.
    private init(
        method: String, target: Substring, headers: HTTPHeaders, body: [UInt8], baseURL: String?,
        pathParameters: [String: String], clientIP: (() -> String)?, query source: QuerySource,
        pathTemplated: Bool, secure: Bool
    ) {
        self.secure = secure
        self.pathTemplated = pathTemplated
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.pathParameters = pathParameters
        clientIPSource = clientIP
        switch source {
        case .given(let pairs): query = pairs
        case .later(let function): querySource = function
        case .fromTarget: break
        }
        if let baseURL { self.baseURL = baseURL }
    }

    /// Where the query starts (`?`), found on the UTF-8 view.
    private var question: String.Index? {
        // On the contiguous UTF-8 by offset (the generic search steps String indices).
        var target = target
        let offset = target.withUTF8 { bytes -> Int? in
            // A plain loop: `firstIndex(of:)` here is not specialised, and costs a call a byte.
            var position = 0
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "?") { return position }
                position += 1
            }
            return nil
        }
        return offset.map { self.target.utf8.index(self.target.utf8.startIndex, offsetBy: $0) }
    }

    /// The path as the caller gave it, if it did.
    private var knownPath: Substring?

    /// The path, still percent-encoded.
    package var path: Substring {
        if let knownPath { return knownPath }
        if let question { return target[..<question] }
        return target
    }

    /// `request.path` and `request.pathSegments`, made when first read.
    private lazy var pathNode = PathNode(path: path, parameters: pathParameters, templated: pathTemplated)
    private lazy var pathSegmentsNode = PathNode(path: path, parameters: [:])

    private var querySource: (() -> [(name: String, value: String)])?

    private lazy var query: [(name: String, value: String)] = {
        if let querySource { return querySource() }
        guard let question else { return [] }
        return QueryParameters.parse(target[target.utf8.index(after: question)...])
    }()

    private lazy var bodyText = String(decoding: body, as: UTF8.self)

    /// An id for the request (a random UUID), made when first read.
    private lazy var id = TemplateHelpers.uuid()

    package var text: String { url }

    package var entries: [(key: String?, value: TemplateValue)] { [] }

    package func member(_ name: String) -> TemplateValue? {
        switch name {
        case "url": return .string(url)
        case "id": return .string(id)
        case "requestLine": return .node(self)
        case "path": return .node(pathNode)
        case "pathSegments": return .node(pathSegmentsNode)
        case "method": return .string(method)
        case "baseUrl": return .string(baseURL)
        case "body": return .string(bodyText)
        case "bodyAsBase64": return .string(Base64Text.encode(body))
        case "clientIp": return .string(clientIP)
        case "scheme": return .string(baseURL.hasPrefix("https") ? "https" : "http")
        case "host", "port":
            let authority = baseURL.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            let colon = authority.lastIndex(of: ":")
            if name == "host" { return .string(colon.map { String(authority[..<$0]) } ?? authority) }
            return colon.flatMap { Int(authority[authority.index(after: $0)...]) }.map(TemplateValue.int)
                ?? .int(baseURL.hasPrefix("https") ? 443 : 80)
        case "query":
            return .node(NamedValues(pairs: query, ignoringCase: false))
        case "headers":
            return .node(NamedValues(pairs: headers.fields.map { ($0.name, $0.value) }, ignoringCase: true))
        case "cookies":
            return .node(NamedValues(pairs: Self.cookies(headers), ignoringCase: false))
        default: return nil
        }
    }

    /// What ``member(_:)`` and then the member's own lookup find for `access`
    /// (`request.query.q` is `.node(MultiValue)` as there), without the nodes in between.
    func value(_ access: RequestAccess) -> TemplateValue {
        switch access {
        case .path(let name, let index):
            return pathText(name, index).map(TemplateValue.string) ?? .null
        case .query(let name):
            var found: [String] = []
            for pair in query where pair.name == name { found.append(pair.value) }
            return found.isEmpty ? .null : .node(MultiValue(found))
        case .header(let name):
            var found: [String] = []
            for field in headers.fields where field.name.equalsIgnoringASCIICase(name) { found.append(field.value) }
            return found.isEmpty ? .null : .node(MultiValue(found))
        }
    }

    /// The text ``value(_:)`` renders as (a name's first value), with nothing allocated
    /// but the text itself.
    func text(_ access: RequestAccess) -> String {
        switch access {
        case .path(let name, let index): return pathText(name, index) ?? ""
        case .query(let name): return query.first { $0.name == name }?.value ?? ""
        case .header(let name): return headers.fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value ?? ""
        }
    }

    /// The text ``value(_:)`` renders as and what giving that value to a helper costs
    /// (``TemplateValue/workEstimate``), without making the value.
    func argument(_ access: RequestAccess) -> (text: String, workEstimate: Int) {
        switch access {
        case .path(let name, let index):
            guard let text = pathText(name, index) else { return ("", 1) }
            return (text, text.utf8.count)
        case .query, .header: return (text(access), 1)
        }
    }

    /// `request.path.NAME`: a `urlPathTemplate` variable, else the segment at `index`.
    private func pathText(_ name: String, _ index: Int?) -> String? {
        if !pathParameters.isEmpty, let value = pathParameters[name] { return value }
        guard let index else { return nil }
        return PathNode.segment(of: path, at: index)
    }

    /// The cookies of every `Cookie` field (split by bytes: a `;` before a combining mark
    /// still separates).
    static func cookies(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        headers.cookiePairs
    }
}

/// `request.path`: renders as the path; `.[n]` is a segment, `.name` a template variable.
/// A segment read by its index is found by a scan, without splitting the whole path.
final class PathNode: TemplateNode {
    /// The path as it renders, made into text only when it renders.
    let path: Substring
    let parameters: [String: String]
    /// Whether the stub matched with `urlPathTemplate`: `{{#each}}` then visits the path's
    /// segments as WireMock's `TemplatedUrlPath` iterates them, the empty one before the
    /// first `/` (and after a final `/`) included.
    let templated: Bool

    init(path: Substring, parameters: [String: String], templated: Bool = false) {
        self.path = path
        self.parameters = parameters
        self.templated = templated
    }

    /// Every segment, decoded (for `size` and `each`).
    private lazy var segments: [String] = path.utf8.split(separator: UInt8(ascii: "/")).map {
        Self.decoded(Substring($0))
    }

    var text: String { String(path) }

    func member(_ name: String) -> TemplateValue? {
        if !parameters.isEmpty, let value = parameters[name] { return .string(value) }
        if let index = Int(name) { return segment(at: index).map(TemplateValue.string) }
        if name == "size" || name == "length" { return .int(segments.count) }
        return nil
    }

    var entries: [(key: String?, value: TemplateValue)] {
        var visited = segments
        if templated {
            if path.hasPrefix("/") { visited.insert("", at: 0) }
            if path.count > 1 && path.hasSuffix("/") { visited.append("") }
        }
        return visited.map { (nil, .string($0)) }
    }

    /// The segment at `index` (empty segments skipped, as `split` skips them), decoded.
    func segment(at index: Int) -> String? { Self.segment(of: path, at: index) }

    /// The segment of `path` at `index`, found by a scan of its UTF-8 (made contiguous if it
    /// is not; a server's path is a slice of the request head, already contiguous).
    static func segment(of path: Substring, at index: Int) -> String? {
        guard index >= 0 else { return nil }
        var path = path
        return path.withUTF8 { bytes -> String? in
            var seen = 0
            var start = -1
            var position = 0
            var end = -1
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "/") {
                    if start >= 0 {
                        if seen == index {
                            end = position
                            break
                        }
                        seen += 1
                        start = -1
                    }
                } else if start < 0 {
                    start = position
                }
                position += 1
            }
            if end < 0 {
                guard start >= 0, seen == index else { return nil }
                end = bytes.count
            }
            let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let raw = String(decoding: segment, as: UTF8.self)
            guard segment.contains(UInt8(ascii: "%")) else { return raw }
            return raw.removingPercentEncoding() ?? raw
        }
    }

    /// A segment's text: most have no escape, and are then the segment as it is.
    private static func decoded(_ raw: Substring) -> String {
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return String(raw) }
        return raw.removingPercentEncoding() ?? String(raw)
    }
}

/// Query parameters, headers or cookies by name; each name's values as a ``MultiValue``.
final class NamedValues: TemplateNode {
    let pairs: [(name: String, value: String)]
    let ignoringCase: Bool

    init(pairs: [(name: String, value: String)], ignoringCase: Bool) {
        self.pairs = pairs
        self.ignoringCase = ignoringCase
    }

    var text: String { "{" + names.map { "\($0)=\(values($0).joined(separator: ", "))" }.joined(separator: ", ") + "}" }

    private var names: [String] {
        var seen = Set<String>()
        return pairs.map(\.name).filter { seen.insert(ignoringCase ? $0.lowercased() : $0).inserted }
    }

    private func values(_ name: String) -> [String] {
        pairs.filter { ignoringCase ? $0.name.equalsIgnoringASCIICase(name) : $0.name == name }.map(\.value)
    }

    func member(_ name: String) -> TemplateValue? {
        let found = values(name)
        return found.isEmpty ? nil : .node(MultiValue(found))
    }

    var entries: [(key: String?, value: TemplateValue)] {
        names.map { ($0, .node(MultiValue(values($0)))) }
    }
}
