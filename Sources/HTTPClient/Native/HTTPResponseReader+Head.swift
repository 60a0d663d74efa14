import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPResponseReader {
    /// Reads head bytes from `input`: collects them until the empty line that ends the head,
    /// then reads the head and sets up the body. Returns how many bytes of `input` it used.
    mutating func readHead(_ input: UnsafeRawBufferPointer) throws(HTTPResponseError) -> Int {
        if headBuffer.isEmpty, let end = Self.headEnd(in: input, from: 0) {
            try checkHeadSize(end)
            try finishHead(UnsafeRawBufferPointer(rebasing: input[..<end]))
            return end
        }
        let previous = headBuffer.count
        let room = limits.headBytes - headBytesSeen - previous
        guard room > 0 else { throw .headTooLarge("more than \(limits.headBytes) bytes") }
        // Past the room left the head cannot end: take one byte more than fits, to know.
        let taken = min(input.count, room + 1)
        headBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[..<taken]))
        let found = headBuffer.withUnsafeBytes { Self.headEnd(in: $0, from: max(0, previous - 2)) }
        guard let end = found else {
            if headBuffer.count > limits.headBytes - headBytesSeen {
                throw .headTooLarge("more than \(limits.headBytes) bytes")
            }
            return taken
        }
        try checkHeadSize(end)
        let buffered = headBuffer
        headBuffer = []
        let outcome = buffered.withUnsafeBytes { bytes in
            Result { () throws(HTTPResponseError) in try finishHead(UnsafeRawBufferPointer(rebasing: bytes[..<end])) }
        }
        try outcome.get()
        return end - previous
    }

    private func checkHeadSize(_ size: Int) throws(HTTPResponseError) {
        guard headBytesSeen + size <= limits.headBytes else {
            throw .headTooLarge("more than \(limits.headBytes) bytes")
        }
    }

    /// Where the head ends: just after the first LF followed by LF or CRLF at or after `start`.
    static func headEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while let found = newline(in: bytes, from: index) {
            if found + 1 < bytes.count, bytes[found + 1] == lf { return found + 2 }
            if found + 2 < bytes.count, bytes[found + 1] == cr, bytes[found + 2] == lf { return found + 3 }
            index = found + 1
        }
        return nil
    }

    /// The position of the first LF at or after `start` (`memchr`, not a byte loop).
    static func newline(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        position(of: lf, in: bytes, from: start)
    }

    /// The position of the first `byte` at or after `start` (`memchr`, not a byte loop).
    static func position(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Reads a complete head (its lines and the empty line) and sets up what comes next.
    private mutating func finishHead(_ bytes: UnsafeRawBufferPointer) throws(HTTPResponseError) {
        headBytesSeen += bytes.count
        let parsed = try Self.parseHead(bytes, fieldLimit: limits.fields)
        let code = parsed.status.code
        if code == 101 { throw .malformed("status 101 (Switching Protocols) to a request that asked for no upgrade") }
        if (100..<200).contains(code) { return }  // interim (100 Continue, 103 Early Hints): the real one follows
        let framing = try framing(of: parsed.headers, status: parsed.status)
        let persistent = parsed.version == .http11 ? !framing.close : framing.keepAlive
        head = Head(
            status: parsed.status, version: parsed.version, headers: parsed.headers, framing: framing.framing,
            keepAlive: persistent && framing.framing != .untilClose)
        switch framing.framing {
        case .none, .length(0): state = .complete
        case .length(let count):
            body.reserveCapacity(count)
            state = .body(remaining: count)
        case .chunked: state = .chunkLine
        case .untilClose: state = .untilClose
        }
    }

    /// How the body is delimited (RFC 9112 §6.3), or why that cannot be told; and what the
    /// `Connection` fields say. One pass over the fields.
    private func framing(
        of headers: HTTPHeaders, status: HTTPStatus
    ) throws(HTTPResponseError) -> (framing: Framing, close: Bool, keepAlive: Bool) {
        var lastCoding: Substring?
        var length: Substring?
        var otherLength: Substring?
        var close = false
        var keepAlive = false
        let fields = headers.fields
        for index in fields.indices {
            // Read in place (a copy of a field retains its two strings).
            let name = fields[index].name
            switch name.utf8.count {
            case 17 where name.equalsIgnoringASCIICase("Transfer-Encoding"):
                _ = HTTPHeaders.listElements(of: fields[index].value) { element in
                    lastCoding = element
                    return false
                }
            case 14 where name.equalsIgnoringASCIICase("Content-Length"):
                // Every element counts here, empty ones too: `5,` is not a length.
                var rest = Substring(fields[index].value)
                while true {
                    let comma = rest.utf8.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
                    let value = rest[..<comma].trimmingASCIISpaces()
                    if length == nil {
                        length = value
                    } else if value != length, otherLength == nil {
                        otherLength = value
                    }
                    guard comma != rest.endIndex else { break }
                    rest = rest[rest.index(after: comma)...]
                }
            case 10 where name.equalsIgnoringASCIICase("Connection"):
                _ = HTTPHeaders.listElements(of: fields[index].value) { token in
                    close = close || token.equalsIgnoringASCIICase("close")
                    keepAlive = keepAlive || token.equalsIgnoringASCIICase("keep-alive")
                    return false
                }
            default: continue
            }
        }
        if forbidsBody || status.forbidsBody { return (.none, close, keepAlive) }
        // A final coding other than chunked leaves the close to end the body.
        if let lastCoding {
            return (lastCoding.equalsIgnoringASCIICase("chunked") ? .chunked : .untilClose, close, keepAlive)
        }
        guard let first = length else { return (.untilClose, close, keepAlive) }
        guard first.utf8.count <= 18, !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let count = Int(first)
        else { throw .malformed("Content-Length is \(Self.quoted(first)); expected a whole number of bytes") }
        if let otherLength {
            throw .malformed("Content-Length values differ: \(Self.quoted(first)) and \(Self.quoted(otherLength))")
        }
        guard count <= maxBodySize else { throw .tooLarge(limit: maxBodySize) }
        return (.length(count), close, keepAlive)
    }

    /// The status line and fields of a head (`bytes` ends with the empty line).
    static func parseHead(
        _ bytes: UnsafeRawBufferPointer, fieldLimit: Int
    ) throws(HTTPResponseError) -> (status: HTTPStatus, version: HTTPVersion, headers: HTTPHeaders) {
        var start = 0
        var number = 0
        var status: (HTTPVersion, HTTPStatus)?
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(16)
        while let lineEnd = newline(in: bytes, from: start) {
            var end = lineEnd
            if end > start, bytes[end - 1] == cr { end -= 1 }
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            start = lineEnd + 1
            number += 1
            guard let _ = status else {
                status = try parseStatusLine(line)
                continue
            }
            if line.isEmpty { break }  // the end of the head
            if line[0] == space || line[0] == tab {
                // obs-fold: replaced by a space (RFC 9112 §5.2).
                guard !fields.isEmpty else { throw .malformed("line 2 starts with whitespace (obsolete folding)") }
                let more = try fieldValue(line, line: number)
                fields[fields.count - 1].value += more.isEmpty ? "" : " " + more
                continue
            }
            guard fields.count < fieldLimit else { throw .headTooLarge("more than \(fieldLimit) fields") }
            guard let colon = position(of: UInt8(ascii: ":"), in: line), colon > 0 else {
                throw .malformed("line \(number) is not a field (no name before ':'): \(quoted(line))")
            }
            let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
            guard name.allSatisfy(\.isTokenCharacter) else {
                throw .malformed("line \(number) has a field name that is not a token: \(quoted(name))")
            }
            let value = try fieldValue(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]), line: number)
            fields.append(HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: value))
        }
        guard let (version, code) = status else { throw .malformed("no status line") }
        return (code, version, HTTPHeaders(fields))
    }

    private static func parseStatusLine(
        _ line: UnsafeRawBufferPointer
    ) throws(HTTPResponseError) -> (HTTPVersion, HTTPStatus) {
        // HTTP/1.1 200 OK   (the reason may be empty, and its space with it)
        let digit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        guard line.count >= 12, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F,
            digit(line[5]), line[6] == 0x2E,
            digit(line[7]), line[8] == space, digit(line[9]), digit(line[10]), digit(line[11]),
            line.count == 12 || line[12] == space
        else { throw .malformed("the status line is \(quoted(line)); expected 'HTTP/1.1 200 Reason'") }
        let major = Int(line[5] - 0x30)
        let minor = Int(line[7] - 0x30)
        guard major == 1 else { throw .malformed("the status line says HTTP/\(major).\(minor); expected HTTP/1.x") }
        let code = Int(line[9] - 0x30) * 100 + Int(line[10] - 0x30) * 10 + Int(line[11] - 0x30)
        guard code >= 100 else { throw .malformed("status \(code) is not a status (100 to 999)") }
        let reasonBytes =
            line.count > 13
            ? UnsafeRawBufferPointer(rebasing: line[13...]) : UnsafeRawBufferPointer(start: nil, count: 0)
        guard !reasonBytes.contains(where: { $0 < 0x20 && $0 != tab || $0 == 0x7F }) else {
            throw .malformed("the status line's reason holds a control byte: \(quoted(line))")
        }
        let reason = String(decoding: reasonBytes, as: UTF8.self)
        return (HTTPVersion(major: major, minor: minor), HTTPStatus(code: code, reasonPhrase: reason))
    }

    /// A field value without the whitespace around it; a control byte but HTAB is refused.
    private static func fieldValue(_ bytes: UnsafeRawBufferPointer, line: Int) throws(HTTPResponseError) -> String {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == space || bytes[start] == tab { start += 1 }
        while end > start, bytes[end - 1] == space || bytes[end - 1] == tab { end -= 1 }
        let value = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard !value.contains(where: { $0 < 0x20 && $0 != tab || $0 == 0x7F }) else {
            throw .malformed("line \(line) has a control byte in a field value: \(quoted(bytes))")
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Outside text, escaped and cut short, for an error message.
    static func quoted<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let text = String(decoding: bytes.prefix(80), as: UTF8.self)
        return "'" + TerminalText.escape(text) + (bytes.count > 80 ? "…" : "") + "'"
    }

    static func quoted(_ text: Substring) -> String { quoted(Array(text.utf8)) }

    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
}
