import HTTPCore

/// How a response is framed for one request: the one place the rules live that every
/// interpreter of a reply (the socket connection, the URLSession protocol, the handler test
/// drivers) follows, through ``DeliveryPlan``.
///
/// - A `HEAD` request gets the head only, its framing field as a `GET` would have it.
/// - A 1xx, 204 or 304 response has no body and no framing field (RFC 9110 §6.4.1, RFC 9112
///   §6.3).
/// - Otherwise the body is delimited by `Transfer-Encoding: chunked` when the response is
///   chunked or dribbled and the client speaks HTTP/1.1, else by `Content-Length`.
/// - A handler's own `Content-Length`, `Transfer-Encoding` and `Connection` fields give way to
///   the server's (``isServerField(_:)``).
/// - The body goes gzip-compressed when the response offers a gzip form and the request
///   accepts gzip (``HTTPResponse/offeredGzip``, ``Gzip/isAccepted(by:)``).
public struct ResponseFraming: Sendable, Hashable {
    /// The field that delimits the body.
    public enum Length: Sendable, Hashable {
        /// None: the status forbids a body.
        case none
        /// `Content-Length` of this many bytes.
        case contentLength(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    /// The field that delimits the body.
    public let length: Length
    /// Whether the body's bytes are sent: not for `HEAD`, nor for a status that forbids a body.
    public let sendsBody: Bool

    /// The framing of a response with `status` and a body of `bodyCount` bytes, chunked or
    /// not, to a request with `method` from a client that speaks HTTP/1.1 or not.
    public init(status: HTTPStatus, bodyCount: Int, chunked: Bool, method: HTTPMethod, http11: Bool) {
        let forbidsBody = status.forbidsBody
        if forbidsBody {
            length = .none
        } else if chunked && http11 {
            length = .chunked
        } else {
            length = .contentLength(bodyCount)
        }
        sendsBody = !forbidsBody && method != .head
    }

    /// The framing field as a client reads it, nil when there is none.
    public var field: (name: String, value: String)? {
        switch length {
        case .none: nil
        case .contentLength(let count): ("Content-Length", String(count))
        case .chunked: ("Transfer-Encoding", "chunked")
        }
    }

    /// Whether the chunked coding delimits the body.
    public var isChunked: Bool { length == .chunked }

    /// Writes the framing field's line (nothing when there is none).
    package func writeField(into buffer: ByteBuffer) {
        switch length {
        case .none:
            break
        case .contentLength(let count):
            buffer.append("Content-Length: ")
            buffer.appendDecimal(count)
            buffer.append("\r\n")
        case .chunked:
            buffer.append("Transfer-Encoding: chunked\r\n")
        }
    }

    /// The fields the server writes itself, in place of any a handler sets.
    public static let serverFields = ["Content-Length", "Transfer-Encoding", "Connection"]

    /// Whether `name` is one of ``serverFields`` (compared without case).
    public static func isServerField(_ name: String) -> Bool {
        serverFields.contains { name.equalsIgnoringASCIICase($0) }
    }
}

extension HTTPResponse {
    /// The gzip form of the body the response offers: compressed now for
    /// ``Compression/gzipIfAccepted``, the bytes given for ``Compression/precompressedGzip(_:)``,
    /// nil for ``Compression/identity``.
    public var offeredGzip: [UInt8]? {
        switch compression {
        case .identity: nil
        case .gzipIfAccepted: Gzip.compress(body)
        case .precompressedGzip(let bytes): bytes
        }
    }
}

extension HTTPFault {
    /// How many bytes of the body a ``truncatedBody(_:keepingBytes:)`` fault sends before it
    /// breaks off: those it keeps when fewer than the body's, else half the body.
    public static func keptBytes(of response: HTTPResponse, keeping count: Int) -> Int {
        count < response.body.count ? max(0, count) : response.body.count / 2
    }
}

extension HTTPDribble {
    /// The pieces a dribbled body of `count` bytes is sent in and when each goes, after the
    /// head: ``chunkCount`` pieces at most (one a byte at least), the first at once, the last at
    /// ``duration``, the others evenly between.
    public func schedule(bodyCount count: Int) -> [(bytes: Range<Int>, after: Duration)] {
        let pieces = max(1, min(chunkCount, count))
        let interval = duration / pieces
        return (0..<pieces).map { index in
            let bytes = (count * index / pieces)..<(count * (index + 1) / pieces)
            let after: Duration = index == 0 ? .zero : index == pieces - 1 ? duration : interval * index
            return (bytes, after)
        }
    }
}
