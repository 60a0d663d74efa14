import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat
import XMLKit

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

    /// The decoded query parameters, in order.
    let queryParameters: [(name: String, value: String)]
    /// The client's address, for a request that came from one (a template's `request.clientIp`).
    let remoteAddress: HTTPSocketAddress?
    /// Whether it came over TLS (a template's `request.baseUrl`).
    let isSecure: Bool

    init(
        method: HTTPMethod, target: Substring, headers: HTTPHeaders, body: [UInt8],
        remoteAddress: HTTPSocketAddress? = nil, isSecure: Bool = false
    ) {
        self.method = method
        self.remoteAddress = remoteAddress
        self.isSecure = isSecure
        self.target = target
        // Split on the UTF-8 view: `?` is ASCII, and byte scanning avoids grapheme work.
        if let question = target.firstIndexOfUTF8(UInt8(ascii: "?")) {
            path = target[..<question]
            queryParameters = QueryParameters.parse(target[target.utf8.index(after: question)...])
        } else {
            path = target
            queryParameters = []
        }
        self.headers = headers
        self.body = body
    }

    convenience init(_ request: HTTPServerRequest) {
        self.init(
            method: request.method, target: request.head.originForm, headers: request.headers, body: request.body,
            remoteAddress: request.remoteAddress, isSecure: request.isSecure)
    }

    /// For a HEAD request, the same request as a GET: RFC 9110 §9.3.2 makes HEAD a GET without
    /// the body, so a GET stub answers a HEAD no stub names (the server drops the body).
    var headAsGet: MatchableRequest? {
        method == .head
            ? MatchableRequest(
                method: .get, target: target, headers: headers, body: body, remoteAddress: remoteAddress,
                isSecure: isSecure)
            : nil
    }

    convenience init(_ logged: LoggedRequest) {
        self.init(
            method: logged.method, target: Substring(logged.url), headers: logged.headers, body: logged.body,
            isSecure: logged.isSecure)
    }

    /// The query parameter names present, summarised for ``FieldNameMask/mayContain(_:)``.
    private(set) lazy var queryNames: FieldNameMask = {
        var mask = FieldNameMask()
        for parameter in queryParameters { mask.insert(parameter.name, ignoringCase: false) }
        return mask
    }()

    /// The header names present, folded to lowercase, summarised the same way.
    private(set) lazy var headerNames: FieldNameMask = {
        var mask = FieldNameMask()
        for field in headers.fields { mask.insert(field.name, ignoringCase: true) }
        return mask
    }()

    /// The body as text (invalid UTF-8 repaired).
    private(set) lazy var bodyText: String = String(decoding: body, as: UTF8.self)

    /// The body as JSON, or nil when it is not JSON.
    private(set) lazy var bodyJSON: JSONValue? = try? JSONValue(parsing: body)

    /// What each body matcher said of this body, by the matcher as written: stubs that share
    /// a body pattern, and the near-miss report after them, look at the body once per matcher.
    private(set) var bodyVerdicts: [StringMatcher: Bool] = [:]

    /// The body read as XML, by whether namespaces were strict: every `equalToXml` of every
    /// candidate stub, and the near-miss report, read the body once.
    var bodyXMLDocuments: [Bool: Result<XMLDocument, XMLError>] = [:]

    /// The body read for XPath, by whether names are local: every `matchesXPath` shares it.
    var bodyXPathDocuments: [Bool: Result<XPathDocument, XMLError>] = [:]

    /// Whether the body satisfies the matcher (`source` is what it was compiled from).
    func bodyMatches(_ matcher: CompiledMatcher, source: StringMatcher) -> Bool {
        if let verdict = bodyVerdicts[source] { return verdict }
        // An empty body is an absent one, as WireMock reads it (`absent` matches it, `equalTo ""`
        // does not).
        let verdict =
            matcher.matchesXMLBody(of: self)
            ?? matcher.matches(body.isEmpty ? nil : bodyText, bytes: body, json: { self.bodyJSON })
        bodyVerdicts[source] = verdict
        return verdict
    }

    /// The cookies of every `Cookie` field (RFC 6265 §4.2: `name=value` pairs split by `;`, by
    /// bytes, so a `;` before a combining mark still separates), values URL-decoded as WireMock
    /// decodes them (`%20` and `+` a space; a value that is not valid percent-encoding stays as
    /// sent).
    private(set) lazy var cookies: [(name: String, value: String)] = headers.cookiePairs.map { pair in
        let value = pair.value[...].withoutSurroundingQuotes()
        return (pair.name, String(value).removingPercentEncoding(plusAsSpace: true) ?? String(value))
    }

    /// The fields of an `application/x-www-form-urlencoded` body, decoded; none for another body.
    private(set) lazy var formParameters: [(name: String, value: String)] = {
        let type = headers["Content-Type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else { return [] }
        return QueryParameters.parse(Substring(bodyText))
    }()

    /// The parts of a `multipart/*` body, or nil when the body is not one (or is malformed).
    private(set) lazy var multipartParts: [MultipartPart]? = MultipartParser.parse(
        contentType: headers["Content-Type"] ?? "", body: body)

    /// Every value of the cookie.
    func cookieValues(_ name: String) -> [String] {
        cookies.filter { $0.name == name }.map(\.value)
    }

    /// Every value of the form field.
    func formValues(_ name: String) -> [String] {
        formParameters.filter { $0.name == name }.map(\.value)
    }

    /// Every value of the query parameter.
    func queryValues(_ name: String) -> [String] {
        queryParameters.filter { $0.name == name }.map(\.value)
    }

    /// Whether the raw path is exactly `text`, byte for byte.
    func pathEquals(_ text: String) -> Bool {
        path.utf8.elementsEqual(text.utf8)
    }

    /// Whether the raw target (path and query) is exactly `text`, byte for byte.
    func targetEquals(_ text: String) -> Bool {
        target.utf8.elementsEqual(text.utf8)
    }
}
