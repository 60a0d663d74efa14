import HTTPCore

/// The request as templates see it (WireMock's `request` model): `url`, `path` (with
/// `path.[n]` and the `urlPathTemplate` parameters by name), `pathSegments`, `query`,
/// `headers` (any case), `cookies`, `method`, `baseUrl`, `body`. Members are worked out when
/// a template reads them.
public final class TemplateRequest: TemplateNode {
    /// The method, as sent.
    public let method: String
    /// The origin-form target: path and query, still percent-encoded.
    public let url: String
    /// The header fields.
    public let headers: HTTPHeaders
    /// The body.
    public let body: [UInt8]
    /// `http://host:port`, from the `Host` field (or the listening address).
    public let baseURL: String
    /// The `urlPathTemplate` variables, decoded.
    public let pathParameters: [String: String]
    /// The client's address.
    public let clientIP: String
    /// Whether the stub matched the path with `urlPathTemplate` (see ``PathNode``).
    public let pathTemplated: Bool

    /// Creates the model of one request; `queryParameters`, when the caller has them decoded
    /// already, saves parsing the query again; `pathTemplated` when the stub matched with
    /// `urlPathTemplate`.
    public init(
        method: String, url: String, headers: HTTPHeaders, body: [UInt8], baseURL: String,
        pathParameters: [String: String] = [:], clientIP: String = "",
        queryParameters: [(name: String, value: String)]? = nil, pathTemplated: Bool = false
    ) {
        self.pathTemplated = pathTemplated
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.baseURL = baseURL
        self.pathParameters = pathParameters
        self.clientIP = clientIP
        if let queryParameters { query = queryParameters }
    }

    /// Where the query starts (`?`), found on the UTF-8 view.
    private var question: String.Index? { url.utf8.firstIndex(of: UInt8(ascii: "?")) }

    /// The path, still percent-encoded.
    public var path: Substring {
        if let question { return url[..<question] }
        return url[...]
    }

    private lazy var segments: [String] = path.utf8.split(separator: UInt8(ascii: "/")).map {
        let raw = Substring($0)
        // Most segments have no escape: then the text is the segment as it is.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return String(raw) }
        return raw.removingPercentEncoding() ?? String(raw)
    }

    private lazy var query: [(name: String, value: String)] = {
        guard let question else { return [] }
        return QueryParameters.parse(url[url.utf8.index(after: question)...])
    }()

    private lazy var bodyText = String(decoding: body, as: UTF8.self)

    /// An id for the request (a random UUID), made when first read.
    private lazy var id = TemplateHelpers.uuid()

    public var text: String { url }

    public var entries: [(key: String?, value: TemplateValue)] { [] }

    public func member(_ name: String) -> TemplateValue? {
        switch name {
        case "url": return .string(url)
        case "id": return .string(id)
        case "requestLine": return .node(self)
        case "path":
            return .node(
                PathNode(
                    text: String(path), segments: segments, parameters: pathParameters, templated: pathTemplated))
        case "pathSegments": return .node(PathNode(text: String(path), segments: segments, parameters: [:]))
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

    /// The cookies of every `Cookie` field.
    static func cookies(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        headers.values(name: "Cookie").flatMap { field in
            field.split(separator: ";").compactMap { pair -> (name: String, value: String)? in
                let trimmed = pair.drop { $0 == " " || $0 == "\t" }
                guard let equals = trimmed.firstIndex(of: "=") else { return nil }
                var value = trimmed[trimmed.index(after: equals)...]
                while value.last == " " || value.last == "\t" { value.removeLast() }
                return (String(trimmed[..<equals]), String(value))
            }
        }
    }
}

/// `request.path`: renders as the path; `.[n]` is a segment, `.name` a template variable.
final class PathNode: TemplateNode {
    let text: String
    let segments: [String]
    let parameters: [String: String]
    /// Whether the stub matched with `urlPathTemplate`: `{{#each}}` then visits the path's
    /// segments as WireMock's `TemplatedUrlPath` iterates them, the empty one before the
    /// first `/` (and after a final `/`) included.
    let templated: Bool

    init(text: String, segments: [String], parameters: [String: String], templated: Bool = false) {
        self.text = text
        self.segments = segments
        self.parameters = parameters
        self.templated = templated
    }

    func member(_ name: String) -> TemplateValue? {
        if let value = parameters[name] { return .string(value) }
        if let index = Int(name), segments.indices.contains(index) { return .string(segments[index]) }
        if name == "size" || name == "length" { return .int(segments.count) }
        return nil
    }

    var entries: [(key: String?, value: TemplateValue)] {
        var visited = segments
        if templated {
            if text.hasPrefix("/") { visited.insert("", at: 0) }
            if text.count > 1 && text.hasSuffix("/") { visited.append("") }
        }
        return visited.map { (nil, .string($0)) }
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
