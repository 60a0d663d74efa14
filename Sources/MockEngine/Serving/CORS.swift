import HTTPCore
import HTTPHandlerKit
import StubFormat

/// The serving stage of cross-origin requests (`petmock serve --cors`, on by default with
/// `--openapi`, as in Prism), in two parts, both functions of values:
///
/// - before the answer (``StubEngine/decide(_:)``): a browser's preflight (`OPTIONS` with
///   `Origin` and `Access-Control-Request-Method`) that no stub naming `OPTIONS` matched is
///   answered here, with a 204 that allows what it asks for, before the document (which would
///   answer 405) and the near-miss 404;
/// - after it (``StubEngine/reply(to:)``, the one place every stub request's reply passes,
///   deferred ones included): the answer to a request with `Origin` gets
///   `Access-Control-Allow-Origin` (the origin, echoed), `Access-Control-Allow-Credentials`,
///   `Access-Control-Expose-Headers` (the answer's own fields) and `Vary: Origin`.
///
/// The origin is echoed rather than `*` so that credentialed requests (cookies,
/// `Authorization`) work too: `*` may not go with `Allow-Credentials: true`. An answer that
/// sets `Access-Control-Allow-Origin` itself (a stub's or the document's headers) keeps its
/// own CORS fields, and none is added; an upstream's, for a forwarded request, are replaced,
/// as WireMock's `--enable-stub-cors` does: they were written for the upstream's origins.
enum CORSStage {
    /// How long a browser may cache a preflight's answer, in seconds (WireMock's, through
    /// Jetty's `CrossOriginFilter`).
    static let maxAge = "1800"

    /// The fields the preflight's answer depends on, named in its `Vary`.
    static let preflightVary = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"

    /// The response fields a browser exposes to a page without being told (the CORS-safelisted
    /// response header names of the Fetch standard), left out of `Access-Control-Expose-Headers`.
    static let safelisted: [String] = [
        "Cache-Control", "Content-Language", "Content-Length", "Content-Type", "Expires", "Last-Modified", "Pragma",
    ]

    // MARK: before the answer: the preflight

    /// What a preflight asks for: the origin, the method of the request to come and the header
    /// fields it will send (`Access-Control-Request-Headers`, as sent), when it is one.
    struct Preflight: Sendable, Equatable {
        var origin: String
        var method: String
        var headers: String?

        /// The preflight `request` is, or nil: an `OPTIONS` with `Origin` and
        /// `Access-Control-Request-Method`. Any other request (an `OPTIONS` without them
        /// among them) is not one and is served as any other.
        init?(_ request: HTTPServerRequest) {
            guard request.method == .options else { return nil }
            let fields = request.headers
            guard let origin = fields.first(name: "Origin"),
                let method = fields.first(name: "Access-Control-Request-Method")
            else { return nil }
            self.origin = origin
            self.method = method
            headers = fields.first(name: "Access-Control-Request-Headers")
        }
    }

    /// The preflight petmock answers for `event`, given the stub that matched it (if any): a
    /// preflight no stub naming `OPTIONS` matched (a stub for `ANY` method, or with no method,
    /// does not count: it was written for the requests themselves, not their preflights).
    static func preflight(_ event: ServeEvent, over stub: CompiledStub?) -> Preflight? {
        guard let preflight = Preflight(event.request) else { return nil }
        if let stub, namesOptions(stub.mapping.request) { return nil }
        return preflight
    }

    /// Whether a request pattern names `OPTIONS`: as its method, or among `oneOf`.
    static func namesOptions(_ pattern: RequestPattern) -> Bool {
        if pattern.method == .options { return true }
        if case .oneOf(let methods)? = pattern.methods { return methods.contains(.options) }
        return false
    }

    /// The answer to a preflight: 204, allowing its origin (with credentials), the method it
    /// asks for and the fields it names, for ``maxAge`` seconds. Whether the request to come
    /// is answered is for that request to find out: its answer (a 404 or 405 included) carries
    /// the CORS fields, so the page can read why.
    static func response(to preflight: Preflight) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Access-Control-Allow-Origin", value: preflight.origin)
        headers.add(name: "Access-Control-Allow-Credentials", value: "true")
        headers.add(name: "Access-Control-Allow-Methods", value: preflight.method)
        if let requested = preflight.headers, !requested.isEmpty {
            headers.add(name: "Access-Control-Allow-Headers", value: requested)
        }
        headers.add(name: "Access-Control-Max-Age", value: maxAge)
        headers.add(name: "Vary", value: preflightVary)
        return HTTPResponse(status: HTTPStatus(code: 204), headers: headers)
    }

    // MARK: after the answer: the fields of an actual response

    /// `reply` with the CORS fields for a request from `origin`; `forwarded` for an upstream's
    /// answer (its own `Access-Control-*` fields replaced). A prepared answer becomes a built
    /// one (its head is written again, its body and gzip form shared); a deferred one is
    /// completed with the fields added; a fault is left alone.
    static func expose(_ reply: HTTPReply, to origin: String, forwarded: Bool) -> HTTPReply {
        switch reply {
        case .response(var response):
            expose(&response, to: origin, forwarded: forwarded)
            return .response(response)
        case .prepared(let prepared):
            if !forwarded && prepared.response.headers.contains(name: "Access-Control-Allow-Origin") { return reply }
            var response = prepared.response
            if let gzip = prepared.gzip {
                response.compression = .precompressedGzip(Array(gzip.storage.bytes[gzip.body]))
            }
            expose(&response, to: origin, forwarded: forwarded)
            return .response(response)
        case .dribbled(var response, let dribble):
            expose(&response, to: origin, forwarded: forwarded)
            return .dribbled(response, dribble)
        case .delayed(let inner, let delay):
            return .delayed(expose(inner, to: origin, forwarded: forwarded), by: delay)
        case .deferred(let later):
            let exposed = DeferredReply()
            later.whenComplete { exposed.complete(expose($0, to: origin, forwarded: forwarded)) }
            return .deferred(exposed)
        case .fault:
            return reply
        }
    }

    /// Adds the CORS fields to `response` for a request from `origin`, each only where the
    /// response has none of that name; a response that allows an origin itself is left as it
    /// is, unless `forwarded`, whose `Access-Control-*` fields are dropped first. One pass over
    /// the fields, into one array (this runs per cross-origin request).
    static func expose(_ response: inout HTTPResponse, to origin: String, forwarded: Bool) {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(response.headers.count + 4)
        var exposed = ""
        // The names already exposed, lower-cased: one look each, not a scan of the fields so far.
        var exposedNames: Set<String> = []
        var credentials = false
        var listed = false
        var varies = false
        for field in response.headers.fields {
            let name = field.name
            if isAccessControl(name) {
                if forwarded { continue }
                if name.equalsIgnoringASCIICase("Access-Control-Allow-Origin") { return }
                if name.equalsIgnoringASCIICase("Access-Control-Allow-Credentials") { credentials = true }
                if name.equalsIgnoringASCIICase("Access-Control-Expose-Headers") { listed = true }
            } else if name.equalsIgnoringASCIICase("Vary") {
                varies =
                    varies
                    || HTTPHeaders.listElements(of: field.value) { $0.equalsIgnoringASCIICase("Origin") || $0 == "*" }
            } else if !isSafelisted(name) && exposedNames.insert(name.lowercased()).inserted {
                // A page reads the field only when told: named once, as spelt first.
                exposed += exposed.isEmpty ? name : ", " + name
            }
            fields.append(field)
        }
        fields.append(HTTPHeaders.Field(name: "Access-Control-Allow-Origin", value: origin))
        if !credentials { fields.append(HTTPHeaders.Field(name: "Access-Control-Allow-Credentials", value: "true")) }
        if !listed && !exposed.isEmpty {
            fields.append(HTTPHeaders.Field(name: "Access-Control-Expose-Headers", value: exposed))
        }
        if !varies { fields.append(HTTPHeaders.Field(name: "Vary", value: "Origin")) }
        response.headers = HTTPHeaders(fields)
    }

    /// Whether a page reads the field without being told (``safelisted``); by length first.
    static func isSafelisted(_ name: String) -> Bool {
        switch name.utf8.count {
        case 6, 7, 12, 13, 14, 16: safelisted.contains { $0.equalsIgnoringASCIICase(name) }
        default: false
        }
    }

    /// Whether a field is one of CORS's own (`Access-Control-…`).
    static func isAccessControl(_ name: String) -> Bool {
        let prefix = "access-control-"
        guard name.utf8.count > prefix.utf8.count else { return false }
        return name.utf8.prefix(prefix.utf8.count).elementsEqual(prefix.utf8) { a, b in
            (a >= 65 && a <= 90 ? a | 0x20 : a) == b
        }
    }
}
