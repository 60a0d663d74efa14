import HTTPCore

/// Writes the parts of a response head that do not change per request.
package enum ResponseHeadWriter {
    /// What the fixed part of a head says about the parts added per request.
    package struct Notes {
        /// The handler set its own `Date`.
        package var hasDate = false
        /// The handler's `Connection` field asked to close.
        package var wantsClose = false

        package init() {}
    }

    /// Writes the status line and the handler's fields (minus framing and `Connection`), plus
    /// `Content-Encoding: gzip` and `Vary: Accept-Encoding` as asked.
    package static func writeFixedHead(
        status: HTTPStatus, headers: HTTPHeaders, gzip: Bool, vary: Bool, into buffer: ByteBuffer
    ) -> Notes {
        var sink = buffer
        return writeFixedHead(status: status, headers: headers, gzip: gzip, vary: vary, into: &sink)
    }

    /// The same head into any sink (a buffer, or a ``PreparedHead``'s layout).
    static func writeFixedHead<Sink: ResponseHeadSink>(
        status: HTTPStatus, headers: HTTPHeaders, gzip: Bool, vary: Bool, into buffer: inout Sink
    ) -> Notes {
        var notes = Notes()
        buffer.appendStatusLine(status)
        var hasVary = false
        let fields = headers.fields
        for index in fields.indices {
            // Read in place, and the name's length first: most fields are none of these.
            let name = fields[index].name
            switch name.utf8.count {
            case 14 where name.equalsIgnoringASCIICase("content-length"),
                17 where name.equalsIgnoringASCIICase("transfer-encoding"):
                continue
            case 10 where name.equalsIgnoringASCIICase("connection"):
                if headers.containsToken("close", inHeader: "Connection") { notes.wantsClose = true }
                continue
            case 16 where gzip && name.equalsIgnoringASCIICase("content-encoding"): continue
            case 4 where name.equalsIgnoringASCIICase("date"): notes.hasDate = true
            case 4 where name.equalsIgnoringASCIICase("vary"): hasVary = true
            default: break
            }
            buffer.appendField(at: index, name: name, value: fields[index].value)
        }
        if gzip { buffer.append("Content-Encoding: gzip\r\n") }
        if vary && !hasVary { buffer.append("Vary: Accept-Encoding\r\n") }
        return notes
    }

    package static func statusLine(_ status: HTTPStatus) -> String {
        "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
    }

    /// Whether a byte of a field is written as a space (CR, LF and NUL).
    static func isUnsafeInField(_ byte: UInt8) -> Bool { byte == 13 || byte == 10 || byte == 0 }

    /// Appends text with CR, LF and NUL replaced by spaces, so a field cannot split the head.
    static func appendSanitized(_ text: String, to buffer: ByteBuffer) {
        let write = { (bytes: UnsafeBufferPointer<UInt8>) in
            if !bytes.contains(where: isUnsafeInField) {
                buffer.append(UnsafeRawBufferPointer(bytes))
            } else {
                buffer.append(bytes.map { isUnsafeInField($0) ? UInt8(ascii: " ") : $0 })
            }
        }
        // A native string lends its bytes in place; only a bridged one is copied.
        if text.utf8.withContiguousStorageIfAvailable(write) == nil {
            var copy = text
            copy.withUTF8(write)
        }
    }
}

/// Where ``ResponseHeadWriter`` writes a head.
protocol ResponseHeadSink {
    mutating func appendStatusLine(_ status: HTTPStatus)
    mutating func append(_ text: String)
    /// `name: value` and the line's end, the name and value sanitised.
    mutating func appendField(at index: Int, name: String, value: String)
}

extension ByteBuffer: ResponseHeadSink {
    /// The line ``ResponseHeadWriter/statusLine(_:)`` makes, written in place (no string).
    package func appendStatusLine(_ status: HTTPStatus) {
        append("HTTP/1.1 ")
        appendDecimal(status.code)
        append(" ")
        append(status.reasonPhrase)
        append("\r\n")
    }

    func appendField(at index: Int, name: String, value: String) {
        ResponseHeadWriter.appendSanitized(name, to: self)
        append(": ")
        ResponseHeadWriter.appendSanitized(value, to: self)
        append("\r\n")
    }
}
