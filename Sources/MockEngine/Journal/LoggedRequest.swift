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
    public var url: String {
        var reader = packed.reader
        return reader.string()
    }
    /// The header fields, in order.
    public var headers: HTTPHeaders {
        var reader = packed.reader
        _ = reader.string()
        return reader.headers()
    }
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
    public var upstream: UpstreamResult? {
        guard hasPackedResponse else { return outOfLine?.upstream }
        var reader = packed.reader
        _ = reader.string()
        _ = reader.headers()
        return reader.upstreamResult()
    }
    /// The operation of the fallback source (an OpenAPI document) that answered, `GET /items/{id}`.
    public var documentOperation: String? { outOfLine?.documentOperation }
    /// How the request breaks what that operation documents (empty when it is valid or was
    /// not checked).
    public var violations: [RequestViolation] { outOfLine?.violations ?? [] }
    /// How the answer breaks what the operation documents for it (an example against its own
    /// schema, a live API's answer through the validating proxy).
    public var responseViolations: [RequestViolation] { outOfLine?.responseViolations ?? [] }
    /// Why petmock refused the request (a variant no stub has, say), when it did.
    public var problem: RequestProblem? { outOfLine?.problem }
    /// Whether it was a browser's CORS preflight that petmock answered itself (`--cors`): no
    /// stub matched it, and it is not an unmatched request either.
    public var isPreflight: Bool { outOfLine?.preflight ?? false }
    /// The URL, the header fields and, when the request was proxied and a response came back,
    /// the upstream result: one allocation (the ring keeps up to 10,000 entries, each freed
    /// long after it was made).
    private let packed: PackedFields
    /// Whether `packed` holds the upstream result.
    private let hasPackedResponse: Bool
    /// Whether the request came over TLS (HTTPS).
    public let isSecure: Bool
    /// An upstream failure, the document's part and the problem out of line: inline they would
    /// more than double every entry's size, though few requests have any of them.
    private let outOfLine: OutOfLine?
    let stub: CompiledStub?
    /// How people read the stub that answered (its name, else its id), when one did.
    package var stubLabel: String? { stub?.label }
    let idPrefix: UInt64

    init(
        sequence: UInt64, idPrefix: UInt64, method: HTTPMethod, url: String, headers: HTTPHeaders, body: [UInt8],
        clientAddress: HTTPSocketAddress?, loggedDate: Int64, variant: String?, responseStatus: Int?,
        stub: CompiledStub?, upstream: UpstreamResult? = nil, documentOperation: String? = nil,
        violations: [RequestViolation] = [], responseViolations: [RequestViolation] = [],
        problem: RequestProblem? = nil, preflight: Bool = false, isSecure: Bool = false
    ) {
        self.sequence = sequence
        self.isSecure = isSecure
        self.idPrefix = idPrefix
        self.method = method
        let response = upstream?.response
        packed = PackedFields { writer in
            writer.append(url)
            writer.append(headers)
            if let upstream, let response { writer.append(response, of: upstream) }
        }
        hasPackedResponse = response != nil
        let failure = response == nil ? upstream : nil
        self.body = body
        self.clientAddress = clientAddress
        self.loggedDate = loggedDate
        self.variant = variant
        self.responseStatus = responseStatus
        self.stub = stub
        outOfLine =
            failure == nil && documentOperation == nil && violations.isEmpty && responseViolations.isEmpty
                && problem == nil && !preflight
            ? nil
            : OutOfLine(
                upstream: failure, documentOperation: documentOperation, violations: violations,
                responseViolations: responseViolations, problem: problem, preflight: preflight)
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
    public var wasProxied: Bool { hasPackedResponse || outOfLine?.upstream != nil }

    /// The bytes the entry holds beyond its slot: the body, the URL, the header fields and,
    /// when proxied, the upstream response.
    var retainedBytes: Int { body.count + packed.byteCount }

    /// The mapping that answered, if one did.
    public var matchedMapping: StubMapping? { stub?.mapping }

    /// The client's IP address as text, or `127.0.0.1` when unknown.
    public var clientIP: String { clientAddress?.host ?? "127.0.0.1" }

    /// `http` or `https`, as the request came.
    public var scheme: String { isSecure ? "https" : "http" }

    /// `http://HOST` (`https://` for a request that came over TLS) plus the URL, with the
    /// `Host` header (or the loopback address).
    public var absoluteURL: String { "\(scheme)://\(headers["Host"] ?? "127.0.0.1")\(url)" }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension LoggedRequest: CustomStringConvertible {
    /// One line, for a test's output or a log: `#3 GET /api/pets -> 200, stub pets.json
    /// (variant missing:name), body 12 bytes`; what answered is the stub, `proxied`, the
    /// document's operation, the refusal, `CORS preflight` or `no stub matched`. Escaped for a
    /// terminal.
    public var description: String {
        var text = "#\(sequence) \(method) \(url) -> " + (responseStatus.map(String.init) ?? "no response")
        if let stubLabel {
            text += ", stub \(stubLabel)"
        } else if let problem {
            text += ", refused: \(problem.kind.rawValue)"
        } else if wasProxied {
            text += ", proxied"
        } else if let documentOperation {
            text += ", document \(documentOperation)"
        } else if isPreflight {
            text += ", CORS preflight"
        } else {
            text += ", no stub matched"
        }
        if let variant { text += " (variant \(variant))" }
        if !body.isEmpty { text += ", body \(body.count) byte\(body.count == 1 ? "" : "s")" }
        return TerminalText.escape(text)
    }
}

extension LoggedRequest {
    /// An entry's upstream failure, document part and problem, kept by reference.
    private final class OutOfLine: Sendable {
        let upstream: UpstreamResult?
        let documentOperation: String?
        let violations: [RequestViolation]
        let responseViolations: [RequestViolation]
        let problem: RequestProblem?
        let preflight: Bool

        init(
            upstream: UpstreamResult?, documentOperation: String?, violations: [RequestViolation],
            responseViolations: [RequestViolation], problem: RequestProblem?, preflight: Bool
        ) {
            self.upstream = upstream
            self.documentOperation = documentOperation
            self.violations = violations
            self.responseViolations = responseViolations
            self.problem = problem
            self.preflight = preflight
        }
    }
}
