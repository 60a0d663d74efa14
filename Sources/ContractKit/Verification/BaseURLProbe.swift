import HTTPCore

/// Finds the base URL to pass when every request made under one answered 404 (or a web page):
/// the usual mistakes are the API's origin without its path prefix (`http://127.0.0.1:8081` for
/// petapi's `http://127.0.0.1:8081/api`) and a wrong or doubled prefix (`.../v2/api`,
/// `.../api/api`), so the first request is tried again under `BASE/api`, then under each
/// shorter path of `BASE` alone and with `/api` (``candidates(for:)``).
///
/// ```swift
/// let probe = BaseURLProbe(transport: CurlTransport())
/// if let suggestion = await probe.suggest(base: "http://127.0.0.1:8081", method: .get, url: "http://127.0.0.1:8081/pets") {
///     print(suggestion.hint(option: "--live"))   // http://127.0.0.1:8081/api/pets answers 200, so pass --live ...
/// }
/// ```
public struct BaseURLProbe: Sendable {
    /// A base URL under which the probed request found something.
    public struct Suggestion: Sendable, Hashable {
        /// The base URL to pass, `http://127.0.0.1:8081/api`.
        public var baseURL: String
        /// The request tried under it, `http://127.0.0.1:8081/api/pets`.
        public var url: String
        /// The status it answered.
        public var status: Int

        /// `URL answers STATUS, so pass OPTION BASE_URL` (`... so pass BASE_URL` with no option).
        public func hint(option: String?) -> String {
            "\(url) answers \(status), so pass " + (option.map { "\($0) " } ?? "") + baseURL
        }
    }

    /// The path prefix tried under the base URL.
    public static let pathPrefix = "/api"

    /// How many shorter paths of a base URL are tried (`/a/b/c/d` tries `/a/b/c`, `/a/b`, `/a`
    /// and the origin, each alone and with ``pathPrefix``): the probe sends at most twice this
    /// plus one requests.
    static let maxAncestors = 4

    /// The base URLs tried in place of `base`, in order: `BASE/api`, then each shorter path of
    /// `BASE`, longest first, alone and with `/api`: `http://h/v2/api` tries
    /// `http://h/v2/api/api`, `http://h/v2`, `http://h` and `http://h/api`. None is `base`
    /// itself and none repeats.
    package static func candidates(for base: String) -> [String] {
        let path = path(of: base)
        let origin = String(base.dropLast(path.count))
        var segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var tried: [String] = [base + pathPrefix]
        var ancestors = 0
        while !segments.isEmpty, ancestors < maxAncestors {
            segments.removeLast()
            ancestors += 1
            let ancestor = origin + segments.map { "/" + $0 }.joined()
            for candidate in [ancestor, ancestor + pathPrefix] where candidate != base && !tried.contains(candidate) {
                tried.append(candidate)
            }
        }
        return tried
    }

    /// What `base` is, for when the probe found nothing: an origin (`http://127.0.0.1:8081`, no
    /// path) or a base URL with a path (`http://127.0.0.1:8081/v2/api`). It names no URL to
    /// pass instead: only one seen to answer is suggested (``Suggestion``).
    public static func nothingFound(under base: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        let path = path(of: base)
        guard !path.isEmpty else {
            return "\(base) is an origin, with no path, and nothing was found under \(base)\(pathPrefix) either"
        }
        return "\(base) is a base URL with the path \(path), and nothing was found under it"
            + ", nor under a shorter path, with or without \(pathPrefix)"
    }

    /// The path of a URL after its origin (`/v2/api` of `http://host:8081/v2/api?x=1`); empty
    /// for an origin (`http://host:8081`, `http://host:8081/`).
    static func path(of url: String) -> Substring {
        guard let scheme = url.range(of: "://") else { return "" }
        let rest = url[scheme.upperBound...]
        guard let end = rest.firstIndex(where: { "/?#".contains($0) }), rest[end] == "/" else { return "" }
        let path = rest[end...].prefix { $0 != "?" && $0 != "#" }
        return path == "/" ? "" : path
    }

    private let transport: any HTTPTransport
    private let headers: HTTPHeaders
    private let timeout: Duration?

    /// Creates a probe sending through `transport` with `headers` (the credentials of the check).
    public init(transport: any HTTPTransport, headers: HTTPHeaders = HTTPHeaders(), timeout: Duration? = nil) {
        self.transport = transport
        self.headers = headers
        self.timeout = timeout
    }

    /// Tries `method url`, a request made under `base`, under each of ``candidates(for:)`` in
    /// turn: a suggestion for the first that answers something other than a 404 or a web page,
    /// else nil.
    public func suggest(base: String, method: HTTPMethod, url: String) async -> Suggestion? {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        guard url.hasPrefix(base) else { return nil }
        let rest = url.dropFirst(base.count)
        for guess in Self.candidates(for: base) {
            let probeURL = guess + rest
            let request = HTTPClientRequest(method: method, url: probeURL, headers: headers, timeout: timeout)
            guard let answer = try? await transport.send(request) else { continue }
            if answer.status.code != 404, !Self.isWebPage(answer) {
                return Suggestion(baseURL: guess, url: probeURL, status: answer.status.code)
            }
        }
        return nil
    }

    /// Whether a response is an HTML page (a web server's or a single-page app's), which no
    /// JSON API answers with.
    public static func isWebPage(_ response: HTTPClientResponse) -> Bool {
        let type = response.headers["Content-Type"]?.lowercased() ?? ""
        return type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
    }
}
