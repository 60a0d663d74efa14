import HTTPCore

/// An incremental HTTP/1.1 response reader (RFC 9112) for ``LoopHTTPClient``: fed the bytes of
/// one response as they arrive, in pieces of any size, it collects the head and the whole
/// body, and says when the response is complete.
///
/// Bounded: the head (interim `1xx` heads included) may hold at most ``Limits/headBytes``
/// bytes and ``Limits/fields`` fields, a chunk-size line or trailer section at most
/// ``Limits/lineBytes``, and the body at most the size given; beyond that the reader fails.
/// Each byte is looked at a bounded number of times: the end of the head is searched for in
/// the new bytes only, and body bytes are copied in bulk.
///
/// ```swift
/// var reader = HTTPResponseReader(method: .get, maxBodySize: 1 << 20)
/// if try reader.read(bytes) { let head = reader.head!; let body = reader.body }
/// // on end of stream: try reader.readEnd()  (true when the body ran until close)
/// ```
public struct HTTPResponseReader: Sendable {
    /// The bounds a reader enforces.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of head, interim heads included.
        public var headBytes = 64 << 10
        /// The most header fields.
        public var fields = 256
        /// The most bytes of a chunk-size line, or of all trailers together.
        public var lineBytes = 8 << 10

        /// Default limits.
        public init() {}
    }

    /// How the body of the response is delimited (RFC 9112 §6.3).
    public enum Framing: Sendable, Hashable {
        /// No body: a `HEAD` request, or a `1xx`, `204` or `304` status.
        case none
        /// `Content-Length` bytes.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Every byte until the upstream closes the connection.
        case untilClose
    }

    /// A response head as read.
    public struct Head: Sendable, Hashable {
        /// The status, with the reason the upstream gave.
        public var status: HTTPStatus
        /// The version of the status line.
        public var version: HTTPVersion
        /// The fields in the order received.
        public var headers: HTTPHeaders
        /// How the body is delimited.
        public var framing: Framing
        /// Whether the connection may carry another request after this response.
        public var keepAlive: Bool
    }

    enum State: Sendable {
        case head
        case body(remaining: Int)
        case untilClose
        case chunkLine
        case chunkData(remaining: Int)
        case chunkDataEnd(sawCR: Bool)
        case trailers
        case complete
        case failed(HTTPResponseError)
    }

    /// The limits in force.
    public let limits: Limits
    /// The largest body accepted (``HTTPResponseError/tooLarge(limit:)`` beyond it).
    public let maxBodySize: Int
    let forbidsBody: Bool
    var state = State.head
    var headBuffer: [UInt8] = []
    /// Bytes of head (interim ones included) seen so far.
    var headBytesSeen = 0
    var line: [UInt8] = []
    var trailerBytes = 0

    /// The head, once read.
    public internal(set) var head: Head?
    /// The body bytes received so far (the whole body once complete), still in any content
    /// coding the upstream applied.
    public internal(set) var body: [UInt8] = []
    /// Whether any byte of a response has arrived.
    public private(set) var receivedAny = false

    /// A reader for the response to a request of `method` (a `HEAD` response has no body).
    public init(method: HTTPMethod, maxBodySize: Int, limits: Limits = Limits()) {
        self.limits = limits
        self.maxBodySize = max(0, maxBodySize)
        forbidsBody = method == .head
    }

    /// Whether the response is complete.
    public var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// Reads the next bytes; true once the response is complete. Bytes after the end of the
    /// response are an error: a client sends one request at a time on a connection, so
    /// anything more is not HTTP. After an error the reader stays failed.
    public mutating func read(_ input: UnsafeRawBufferPointer) throws(HTTPResponseError) -> Bool {
        do {
            if !input.isEmpty { receivedAny = true }
            return try readUnchecked(input)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// The upstream closed the connection: true when that completes the response (a body
    /// delimited by the close, or a complete one); else the error saying what was cut short.
    public mutating func readEnd() throws(HTTPResponseError) -> Bool {
        switch state {
        case .complete: return true
        case .untilClose:
            state = .complete
            return true
        case .failed(let error): throw error
        case .head where !receivedAny:
            throw fail(.noResponse)
        default:
            throw fail(.truncated(whileReading: head == nil ? "the head" : "the body", bodyBytes: body.count))
        }
    }

    private mutating func fail(_ error: HTTPResponseError) -> HTTPResponseError {
        state = .failed(error)
        return error
    }

    private mutating func readUnchecked(_ input: UnsafeRawBufferPointer) throws(HTTPResponseError) -> Bool {
        var offset = 0
        while offset < input.count {
            let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
            switch state {
            case .failed(let error): throw error
            case .complete: throw .bytesAfterResponse
            case .head: offset += try readHead(rest)
            case .body(let remaining):
                let count = min(remaining, rest.count)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<count]))
                offset += count
                state = count == remaining ? .complete : .body(remaining: remaining - count)
            case .untilClose:
                guard body.count + rest.count <= maxBodySize else { throw .tooLarge(limit: maxBodySize) }
                body.append(contentsOf: rest)
                offset += rest.count
            case .chunkData(let remaining):
                let count = min(remaining, rest.count)
                guard body.count + count <= maxBodySize else { throw .tooLarge(limit: maxBodySize) }
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<count]))
                offset += count
                state = count == remaining ? .chunkDataEnd(sawCR: false) : .chunkData(remaining: remaining - count)
            case .chunkDataEnd(let sawCR):
                let byte = rest[0]
                offset += 1
                if byte == Self.cr && !sawCR {
                    state = .chunkDataEnd(sawCR: true)
                } else if byte == Self.lf {
                    state = .chunkLine
                } else {
                    throw .malformed("a chunk's data is not followed by CRLF")
                }
            case .chunkLine: offset += try readChunkLine(rest)
            case .trailers: offset += try readTrailers(rest)
            }
        }
        return isComplete
    }

    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
}

/// Why the bytes from an upstream are not an acceptable HTTP/1.1 response.
public enum HTTPResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not HTTP, or HTTP this reader refuses; says what and where.
    case malformed(String)
    /// The head is over the size or field-count limit.
    case headTooLarge(String)
    /// The body is over the size limit.
    case tooLarge(limit: Int)
    /// The connection closed before any byte of a response.
    case noResponse
    /// The connection closed in the middle of the response.
    case truncated(whileReading: String, bodyBytes: Int)
    /// More bytes came after the end of the response.
    case bytesAfterResponse

    public var description: String {
        switch self {
        case .malformed(let what): "malformed response: \(what)"
        case .headTooLarge(let what): "response head too large: \(what)"
        case .tooLarge(let limit): "the response body is larger than the limit of \(limit) bytes"
        case .noResponse: "the connection closed before any response (empty reply)"
        case .truncated(let part, let bytes):
            "the connection closed while reading \(part) of the response (after \(bytes) body bytes)"
        case .bytesAfterResponse: "bytes arrived after the end of the response (a client sends one request at a time)"
        }
    }
}
