import HTTPCore

/// The head of responses made per request that share one shape: the same fields in the same
/// order, some of whose values (and perhaps the status's reason) change per response. The
/// fixed bytes are laid out once; a ``PreparedResponse`` made with
/// ``PreparedResponse/init(_:head:)`` then writes only the varying values and
/// `Content-Length`, and the body after them, into one allocation, byte for byte what
/// ``PreparedResponse/init(_:)`` writes for the same response. A class: a render reads it
/// per response, and a copy of a struct would retain each of its layouts.
///
/// ```swift
/// // Field 1 (X-Id) changes per response.
/// let shape = HTTPHeaders([("Content-Type", "application/json"), ("X-Id", "")])
/// let head = PreparedHead(status: .ok, headers: shape, variableFields: [1])!
/// var headers = shape
/// headers.replaceOrAdd(name: "X-Id", value: id)
/// let prepared = PreparedResponse(HTTPResponse(headers: headers, body: body), head: head)
/// ```
public final class PreparedHead: Sendable {
    /// One part of a laid-out head.
    enum Piece: Sendable {
        case bytes([UInt8])
        /// The response's status line.
        case statusLine
        /// The value of the response's field at this index, sanitised.
        case value(Int)
    }

    /// The fixed bytes and the places of the varying parts, for one form.
    struct Layout: Sendable {
        let pieces: [Piece]
        /// The bytes of the `.bytes` pieces.
        let fixedCount: Int
    }

    /// The field names the layouts were made for, in order.
    let names: [String]
    /// The values laid out as fixed bytes, by field (nil where the value varies).
    let fixedValues: [String?]
    /// The status, when its line is fixed.
    let fixedStatus: HTTPStatus?
    /// Identity, without `Vary` (no gzip offered).
    let plain: Layout
    /// Identity, with `Vary: Accept-Encoding` (gzip offered, not taken).
    let varied: Layout
    /// The gzip form.
    let gzip: Layout
    let hasDate: Bool
    let wantsClose: Bool

    /// Lays out the head of responses with `status` and `headers`, where the values of the
    /// fields at `variableFields` (and the status's reason, with `variableStatus`) change per
    /// response. Nil when a varying value could change more than its own bytes: a varying
    /// `Connection` field (it may ask to close), or an index outside `headers`.
    public init?(status: HTTPStatus, headers: HTTPHeaders, variableStatus: Bool = false, variableFields: [Int]) {
        var variable = [Bool](repeating: false, count: headers.count)
        for index in variableFields {
            guard variable.indices.contains(index) else { return nil }
            guard !headers.fields[index].name.equalsIgnoringASCIICase("connection") else { return nil }
            variable[index] = true
        }
        func layout(gzip: Bool, vary: Bool) -> (Layout, ResponseHeadWriter.Notes) {
            var sink = LayoutSink(variable: variable, variableStatus: variableStatus)
            let notes = ResponseHeadWriter.writeFixedHead(
                status: status, headers: headers, gzip: gzip, vary: vary, into: &sink)
            return (sink.finish(), notes)
        }
        let notes: ResponseHeadWriter.Notes
        (plain, notes) = layout(gzip: false, vary: false)
        varied = layout(gzip: false, vary: true).0
        gzip = layout(gzip: true, vary: true).0
        names = headers.fields.map(\.name)
        fixedValues = headers.fields.indices.map { variable[$0] ? nil : headers.fields[$0].value }
        fixedStatus = variableStatus ? nil : status
        hasDate = notes.hasDate
        wantsClose = notes.wantsClose
    }

    /// Whether `response` has the shape the layouts were made for.
    func fits(_ response: HTTPResponse) -> Bool {
        // `HTTPStatus ==` compares codes only; the fixed line holds the reason too.
        if let fixedStatus,
            fixedStatus.code != response.status.code || fixedStatus.reasonPhrase != response.status.reasonPhrase
        {
            return false
        }
        let fields = response.headers.fields
        guard fields.count == names.count else { return false }
        for index in fields.indices {
            guard fields[index].name == names[index] else { return false }
            // A fixed value given otherwise would be answered with the laid-out bytes.
            if let fixed = fixedValues[index], fields[index].value != fixed { return false }
        }
        return true
    }

    /// The head of `response` in `layout`, then `Content-Length` unless the status has no body,
    /// then `body` unless the status forbids one (a form's one allocation: ``PreparedResponse/Form``).
    func write(_ layout: Layout, for response: HTTPResponse, body: [UInt8]) -> PreparedResponse.Form {
        let bodyCount = body.count
        // Framed as for a GET (``ResponseFraming``): a `Content-Length` unless the status forbids a body.
        let framing = ResponseFraming(
            status: response.status, bodyCount: bodyCount, chunked: false, method: .get, http11: true)
        let framed = framing.length != .none
        let sentCount = framing.sendsBody ? bodyCount : 0
        var statusLine: String?
        var count = layout.fixedCount
        for piece in layout.pieces {
            switch piece {
            case .bytes: break
            case .statusLine:
                let line = ResponseHeadWriter.statusLine(response.status)
                statusLine = line
                count += line.utf8.count
            case .value(let index): count += response.headers.fields[index].value.utf8.count
            }
        }
        let length = Self.decimalCount(bodyCount)
        if framed { count += Self.contentLength.count + length + 2 }
        let headCount = count
        let storage = ByteStorage(count: headCount + sentCount) { output in
            var position = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                guard let source = bytes.baseAddress, let target = output.baseAddress, !bytes.isEmpty else { return }
                (target + position).copyMemory(from: source, byteCount: bytes.count)
                position += bytes.count
            }
            for piece in layout.pieces {
                switch piece {
                case .bytes(let bytes): bytes.withUnsafeBytes { put($0) }
                case .statusLine:
                    var line = statusLine ?? ""
                    line.withUTF8 { put(UnsafeRawBufferPointer($0)) }
                case .value(let index):
                    var value = response.headers.fields[index].value
                    let start = position
                    value.withUTF8 { put(UnsafeRawBufferPointer($0)) }
                    for offset in start..<position where ResponseHeadWriter.isUnsafeInField(output[offset]) {
                        output[offset] = UInt8(ascii: " ")
                    }
                }
            }
            if framed {
                Self.contentLength.withUnsafeBytes { put($0) }
                var remaining = bodyCount
                var index = position + length
                repeat {
                    index -= 1
                    output[index] = UInt8(truncatingIfNeeded: 48 + remaining % 10)
                    remaining /= 10
                } while remaining > 0
                position += length
                output[position] = 13
                output[position + 1] = 10
                position += 2
                body.withUnsafeBytes { put($0) }
            }
        }
        return PreparedResponse.Form(storage: storage, headCount: headCount)
    }

    private static let contentLength = Array("Content-Length: ".utf8)

    private static func decimalCount(_ value: Int) -> Int {
        var count = 1
        var remaining = value
        while remaining >= 10 {
            remaining /= 10
            count += 1
        }
        return count
    }
}

/// Records a head as fixed bytes and the places of the values that vary.
private struct LayoutSink: ResponseHeadSink {
    let variable: [Bool]
    let variableStatus: Bool
    private var pieces: [PreparedHead.Piece] = []
    private var current: [UInt8] = []
    private var fixedCount = 0

    init(variable: [Bool], variableStatus: Bool) {
        self.variable = variable
        self.variableStatus = variableStatus
    }

    mutating func appendStatusLine(_ status: HTTPStatus) {
        if variableStatus {
            flush()
            pieces.append(.statusLine)
        } else {
            append(ResponseHeadWriter.statusLine(status))
        }
    }

    mutating func append(_ text: String) {
        current.append(contentsOf: text.utf8)
    }

    mutating func appendField(at index: Int, name: String, value: String) {
        current.append(contentsOf: name.utf8.map { ResponseHeadWriter.isUnsafeInField($0) ? UInt8(ascii: " ") : $0 })
        append(": ")
        if variable[index] {
            flush()
            pieces.append(.value(index))
        } else {
            current.append(
                contentsOf: value.utf8.map { ResponseHeadWriter.isUnsafeInField($0) ? UInt8(ascii: " ") : $0 })
        }
        append("\r\n")
    }

    private mutating func flush() {
        guard !current.isEmpty else { return }
        pieces.append(.bytes(current))
        fixedCount += current.count
        current = []
    }

    mutating func finish() -> PreparedHead.Layout {
        flush()
        return PreparedHead.Layout(pieces: pieces, fixedCount: fixedCount)
    }
}
