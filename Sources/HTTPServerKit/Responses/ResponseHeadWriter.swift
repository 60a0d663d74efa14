import HTTPCore

/// Writes the parts of a response head that do not change per request.
enum ResponseHeadWriter {
    /// What the fixed part of a head says about the parts added per request.
    struct Notes {
        /// The handler set its own `Date`.
        var hasDate = false
        /// The handler's `Connection` field asked to close.
        var wantsClose = false
    }

    /// Writes the status line and the handler's fields (minus framing and `Connection`), plus
    /// `Content-Encoding: gzip` and `Vary: Accept-Encoding` as asked.
    static func writeFixedHead(
        status: HTTPStatus, headers: HTTPHeaders, gzip: Bool, vary: Bool, into buffer: ByteBuffer
    ) -> Notes {
        var notes = Notes()
        buffer.append(statusLine(status))
        var hasVary = false
        for field in headers.fields {
            let name = field.name
            if name.equalsIgnoringASCIICase("content-length") || name.equalsIgnoringASCIICase("transfer-encoding") {
                continue
            }
            if name.equalsIgnoringASCIICase("connection") {
                if headers.containsToken("close", inHeader: "Connection") { notes.wantsClose = true }
                continue
            }
            if gzip && name.equalsIgnoringASCIICase("content-encoding") { continue }
            if name.equalsIgnoringASCIICase("date") { notes.hasDate = true }
            if name.equalsIgnoringASCIICase("vary") { hasVary = true }
            appendSanitized(name, to: buffer)
            buffer.append(": ")
            appendSanitized(field.value, to: buffer)
            buffer.append("\r\n")
        }
        if gzip { buffer.append("Content-Encoding: gzip\r\n") }
        if vary && !hasVary { buffer.append("Vary: Accept-Encoding\r\n") }
        return notes
    }

    static func statusLine(_ status: HTTPStatus) -> String {
        "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
    }

    /// Appends text with CR, LF and NUL replaced by spaces, so a field cannot split the head.
    static func appendSanitized(_ text: String, to buffer: ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            if !bytes.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
                buffer.append(UnsafeRawBufferPointer(bytes))
            } else {
                buffer.append(bytes.map { $0 == 13 || $0 == 10 || $0 == 0 ? UInt8(ascii: " ") : $0 })
            }
        }
    }
}
