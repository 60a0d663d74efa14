import HTTPCore
import HTTPHandlerKit
import Platform
import StubFormat

/// A request the stub server received, as the journal keeps it, with what answered it.
public struct LoggedRequest: Sendable {
    /// The request's number in the journal, from 1; unique for the server's life.
    public internal(set) var sequence: UInt64
    /// The method.
    public let method: HTTPMethod
    /// The path and query, as sent (percent-encoded).
    public let url: String
    /// The header fields, in order.
    public let headers: HTTPHeaders
    /// The body bytes.
    public let body: [UInt8]
    /// The client's address, when the request came over a socket.
    public let clientAddress: HTTPSocketAddress?
    /// When the request arrived, in milliseconds since 1970.
    public let loggedDate: Int64
    /// The variant in force for it (per request or server-wide), if any.
    public let variant: String?
    /// The status it was answered with; nil for a fault.
    public let responseStatus: Int?
    /// What the live API answered when the request was proxied (recording, or
    /// `--proxy-unmatched`); nil when a stub or petmock itself answered.
    public var upstream: UpstreamResult? { outOfLine?.upstream }
    /// The operation of the fallback source (an OpenAPI document) that answered, `GET /items/{id}`.
    public var documentOperation: String? { outOfLine?.documentOperation }
    /// How the request breaks what that operation documents (empty when it is valid or was
    /// not checked).
    public var violations: [RequestViolation] { outOfLine?.violations ?? [] }
    /// The upstream result and the document's part out of line: inline they would more than
    /// double every entry's size (the journal's ring holds up to 10,000 of them), though few
    /// requests are proxied or answered by a document.
    private let outOfLine: OutOfLine?
    let stub: CompiledStub?
    let idPrefix: UInt64

    init(
        sequence: UInt64, idPrefix: UInt64, method: HTTPMethod, url: String, headers: HTTPHeaders, body: [UInt8],
        clientAddress: HTTPSocketAddress?, loggedDate: Int64, variant: String?, responseStatus: Int?,
        stub: CompiledStub?, upstream: UpstreamResult? = nil, documentOperation: String? = nil,
        violations: [RequestViolation] = []
    ) {
        self.sequence = sequence
        self.idPrefix = idPrefix
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        self.loggedDate = loggedDate
        self.variant = variant
        self.responseStatus = responseStatus
        self.stub = stub
        outOfLine =
            upstream == nil && documentOperation == nil && violations.isEmpty
            ? nil : OutOfLine(upstream: upstream, documentOperation: documentOperation, violations: violations)
    }

    /// A request described from outside (for near-miss queries); not in any journal.
    public init(method: HTTPMethod, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.init(
            sequence: 0, idPrefix: 0, method: method, url: url, headers: headers, body: body, clientAddress: nil,
            loggedDate: TimeSource.system.wallMilliseconds, variant: nil, responseStatus: nil, stub: nil)
    }

    /// The request's id, a UUID (made from the journal's random prefix and the sequence).
    public var id: String { Identifiers.uuid(high: idPrefix, low: sequence) }

    /// Whether a stub answered it.
    public var wasMatched: Bool { stub != nil }

    /// Whether it was forwarded to the live API.
    public var wasProxied: Bool { upstream != nil }

    /// The body bytes the entry holds: the request's and, when proxied, the response's.
    var retainedBytes: Int { body.count + (upstream?.response?.body.count ?? 0) }

    /// The mapping that answered, if one did.
    public var matchedMapping: StubMapping? { stub?.mapping }

    /// The client's IP address as text, or `127.0.0.1` when unknown.
    public var clientIP: String { clientAddress?.host ?? "127.0.0.1" }

    /// `http://HOST` plus the URL, with the `Host` header (or the loopback address).
    public var absoluteURL: String { "http://\(headers["Host"] ?? "127.0.0.1")\(url)" }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension LoggedRequest {
    /// An entry's upstream result, kept by reference.
    private final class OutOfLine: Sendable {
        let upstream: UpstreamResult?
        let documentOperation: String?
        let violations: [RequestViolation]

        init(upstream: UpstreamResult?, documentOperation: String?, violations: [RequestViolation]) {
            self.upstream = upstream
            self.documentOperation = documentOperation
            self.violations = violations
        }
    }
}
