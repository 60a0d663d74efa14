import HTTPCore

/// A response serialised once and sent many times with no per-request serialisation: the
/// status line, fields and `Content-Length` are stored as bytes, and so is the body (and its
/// gzip form when compression is asked for). Per request the server adds only the cached
/// `Date` line and, when needed, a `Connection` line. This is the stub server's fast path.
///
/// ```swift
/// let pets = PreparedResponse(headers: ["Content-Type": "application/json"], body: Array(json.utf8))
/// let server = HTTPServer { _ in .prepared(pets) }
/// ```
///
/// Prepared responses are always delimited by `Content-Length` (a dribble still sends chunks).
public final class PreparedResponse: Sendable {
    /// One wire form of the response, identity or gzip, in one allocation: the status line,
    /// fields and `Content-Length` (without `Date`, `Connection` or the empty line), then the
    /// body (none when the status forbids one).
    package struct Form: Sendable {
        package let storage: ByteStorage
        /// How many of the bytes are the head's; the body follows.
        let headCount: Int

        /// Where the head is in ``storage``.
        package var head: Range<Int> { 0..<headCount }
        /// Where the body is in ``storage``.
        package var body: Range<Int> { headCount..<storage.count }
        /// A copy of the head's bytes.
        var headBytes: [UInt8] { Array(storage.bytes[head]) }
        /// A copy of the body's bytes.
        var bodyBytes: [UInt8] { Array(storage.bytes[body]) }

        /// The head and the body copied into one allocation.
        init(head: [UInt8], body: [UInt8]) {
            storage = ByteStorage(count: head.count + body.count) { output in
                output.copyBytes(from: head)
                UnsafeMutableRawBufferPointer(rebasing: output[head.count...]).copyBytes(from: body)
            }
            headCount = head.count
        }

        init(storage: ByteStorage, headCount: Int) {
            self.storage = storage
            self.headCount = headCount
        }
    }

    /// The response this was prepared from.
    public let response: HTTPResponse
    package let identity: Form
    package let gzip: Form?
    package let hasDate: Bool
    package let wantsClose: Bool

    /// Prepares a response; with ``HTTPResponse/Compression/gzipIfAccepted`` the body is
    /// compressed now, once.
    public init(_ response: HTTPResponse) {
        self.response = response
        let gzipBody = response.offeredGzip
        let offersGzip = gzipBody != nil
        let (identity, notes) = Self.form(response, body: response.body, gzip: false, vary: offersGzip)
        self.identity = identity
        gzip = gzipBody.map { Self.form(response, body: $0, gzip: true, vary: true).0 }
        hasDate = notes.hasDate
        wantsClose = notes.wantsClose
    }

    /// Prepares a response whose head has the shape `head` was laid out for (same fields in the
    /// same order, the status as given unless it varies), writing only its varying values and
    /// `Content-Length`: the bytes are those ``init(_:)`` writes. A response of another shape
    /// is prepared by ``init(_:)``.
    public convenience init(_ response: HTTPResponse, head: PreparedHead) {
        guard head.fits(response) else {
            self.init(response)
            return
        }
        let gzipBody = response.offeredGzip
        let identity = head.write(gzipBody == nil ? head.plain : head.varied, for: response, body: response.body)
        let gzip = gzipBody.map { head.write(head.gzip, for: response, body: $0) }
        self.init(response, identity: identity, gzip: gzip, hasDate: head.hasDate, wantsClose: head.wantsClose)
    }

    private init(_ response: HTTPResponse, identity: Form, gzip: Form?, hasDate: Bool, wantsClose: Bool) {
        self.response = response
        self.identity = identity
        self.gzip = gzip
        self.hasDate = hasDate
        self.wantsClose = wantsClose
    }

    /// Prepares a response from its parts.
    public convenience init(
        status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8],
        compression: HTTPResponse.Compression = .identity
    ) {
        self.init(HTTPResponse(status: status, headers: headers, body: body, compression: compression))
    }

    private static func form(
        _ response: HTTPResponse, body: [UInt8], gzip: Bool, vary: Bool
    )
        -> (Form, ResponseHeadWriter.Notes)
    {
        let buffer = ByteBuffer()
        let notes = ResponseHeadWriter.writeFixedHead(
            status: response.status, headers: response.headers, gzip: gzip, vary: vary, into: buffer)
        // Framed as for a GET; a HEAD gets the same head without the body (``DeliveryPlan``).
        let framing = ResponseFraming(
            status: response.status, bodyCount: body.count, chunked: false, method: .get, http11: true)
        framing.writeField(into: buffer)
        let head = Array(buffer.readableBytes)
        return (Form(head: head, body: framing.sendsBody ? body : []), notes)
    }
}
