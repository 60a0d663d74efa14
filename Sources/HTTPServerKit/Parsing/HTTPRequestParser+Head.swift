import HTTPCore
import HTTPHandlerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPRequestParser {
    /// Collects head bytes until the empty line that ends the header section, enforcing the
    /// request-line and header-size limits as bytes arrive, then parses the whole head.
    mutating func parseHeadBytes(_ input: UnsafeRawBufferPointer) throws(HTTPParserError) -> Step {
        var skipped = 0
        if headBuffer.isEmpty {
            // RFC 9112 §2.2: ignore empty lines received before the request line.
            while skipped < input.count && (input[skipped] == .cr || input[skipped] == .lf) { skipped += 1 }
            if skipped == input.count { return Step(consumed: skipped, event: nil) }
        }
        let rest = UnsafeRawBufferPointer(rebasing: input[skipped...])
        let base = headBuffer.count
        var index = 0
        while index < rest.count {
            guard let newline = Self.indexOfNewline(in: rest, from: index) else { break }
            let lineEnd = base + newline  // absolute position of the LF
            var contentEnd = lineEnd
            if lineEnd > lineStart && byte(at: lineEnd - 1, base: base, rest: rest) == .cr { contentEnd -= 1 }
            let contentLength = contentEnd - lineStart
            if !requestLineDone {
                if contentLength > limits.maxRequestLineLength {
                    throw .requestLineTooLong(limit: limits.maxRequestLineLength)
                }
                requestLineDone = true
                requestLineEnd = lineEnd + 1
            } else if contentLength == 0 {
                let headEnd = lineEnd + 1
                let consumedHere = headEnd - base
                let parsed: HTTPParsedHead
                if headBuffer.isEmpty {
                    parsed = try Self.parseHead(UnsafeRawBufferPointer(rebasing: rest[..<consumedHere]), limits: limits)
                } else {
                    headBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<consumedHere]))
                    let limits = self.limits
                    let result = headBuffer.withUnsafeBytes { buffer in
                        Result { () throws(HTTPParserError) in try Self.parseHead(buffer, limits: limits) }
                    }
                    parsed = try result.get()
                }
                headBuffer = []
                lineStart = 0
                requestLineDone = false
                requestLineEnd = 0
                enterBody(parsed.bodyFraming)
                return Step(consumed: skipped + consumedHere, event: .head(parsed))
            } else if lineEnd + 1 - requestLineEnd > limits.maxHeaderSize {
                throw .headersTooLarge(limit: limits.maxHeaderSize)
            }
            lineStart = lineEnd + 1
            index = newline + 1
        }
        let total = base + rest.count
        if !requestLineDone && total - lineStart > limits.maxRequestLineLength + 1 {
            throw .requestLineTooLong(limit: limits.maxRequestLineLength)
        }
        // A lone CR may start the empty line that ends the head, which the limit does not count
        // (the check above skips it): counting it would refuse, when it arrives by itself, a
        // head that passes when the LF comes in the same read.
        let possibleEnd = total - lineStart == 1 && byte(at: lineStart, base: base, rest: rest) == .cr ? 1 : 0
        if requestLineDone && total - possibleEnd - requestLineEnd > limits.maxHeaderSize {
            throw .headersTooLarge(limit: limits.maxHeaderSize)
        }
        headBuffer.append(contentsOf: rest)
        return Step(consumed: input.count, event: nil)
    }

    private mutating func enterBody(_ framing: HTTPParsedHead.BodyFraming) {
        switch framing {
        case .none: state = .endPending
        case .length(let length): state = .body(remaining: length)
        case .chunked: state = .chunkLine
        }
    }

    private func byte(at position: Int, base: Int, rest: UnsafeRawBufferPointer) -> UInt8 {
        position < base ? headBuffer[position] : rest[position - base]
    }

    static func indexOfNewline(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, Int32(UInt8.lf), buffer.count - start) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Parses a complete head: the request line, field lines and the final empty line.
    static func parseHead(
        _ bytes: UnsafeRawBufferPointer, limits: HTTPParserLimits
    ) throws(HTTPParserError)
        -> HTTPParsedHead
    {
        var lines = LineCursor(bytes: bytes)
        guard let requestLine = try lines.next() else { throw .invalidRequestLine(found: "") }
        let (method, target, version) = try parseRequestLine(UnsafeRawBufferPointer(rebasing: bytes[requestLine]))

        var fields: [HTTPHeaders.Field] = []
        var framing = FramingFields()
        while let line = try lines.next(), !line.isEmpty {
            let field = try parseField(UnsafeRawBufferPointer(rebasing: bytes[line]), line: lines.lineNumber)
            framing.note(field)
            fields.append(HTTPHeaders.Field(name: field.name.string, value: field.value.string))
        }
        let head = HTTPRequestHead(method: method, target: target, version: version, headers: HTTPHeaders(fields))
        return try framing.decide(head: head, limits: limits)
    }

    private static func parseRequestLine(
        _ line: UnsafeRawBufferPointer
    ) throws(HTTPParserError)
        -> (HTTPMethod, String, HTTPVersion)
    {
        guard let firstSpace = line.firstIndex(of: .space) else { throw .invalidRequestLine(found: line.excerpt) }
        let afterMethod = line.index(after: firstSpace)
        guard let secondSpace = line[afterMethod...].firstIndex(of: .space) else {
            throw .invalidRequestLine(found: line.excerpt)
        }
        let method = UnsafeRawBufferPointer(rebasing: line[..<firstSpace])
        let target = UnsafeRawBufferPointer(rebasing: line[afterMethod..<secondSpace])
        let version = UnsafeRawBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard !method.isEmpty, method.allSatisfy(\.isTokenCharacter) else {
            throw .invalidMethod(found: method.excerpt)
        }
        guard !target.isEmpty else { throw .invalidRequestLine(found: line.excerpt) }
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .invalidTarget(found: target.excerpt) }
        return (HTTPMethod(rawValue: method.string), target.string, try parseVersion(version))
    }

    private static func parseVersion(_ bytes: UnsafeRawBufferPointer) throws(HTTPParserError) -> HTTPVersion {
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
            bytes[5].isDigit, bytes[6] == UInt8(ascii: "."), bytes[7].isDigit
        else { throw .invalidVersion(found: bytes.excerpt) }
        let version = HTTPVersion(major: Int(bytes[5] - 48), minor: Int(bytes[7] - 48))
        guard version == .http11 || version == .http10 else { throw .unsupportedVersion(found: bytes.excerpt) }
        return version
    }

    private static func parseField(
        _ line: UnsafeRawBufferPointer, line number: Int
    ) throws(HTTPParserError)
        -> RawField
    {
        if line[0] == .space || line[0] == .tab { throw .obsoleteLineFolding(line: number) }
        guard let colon = line.firstIndex(of: .colon) else {
            throw .invalidHeaderName(line: number, found: line.excerpt)
        }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard !name.isEmpty, name.allSatisfy(\.isTokenCharacter) else {
            throw .invalidHeaderName(line: number, found: line.excerpt)
        }
        var start = colon + 1
        var end = line.count
        while start < end && (line[start] == .space || line[start] == .tab) { start += 1 }
        while end > start && (line[end - 1] == .space || line[end - 1] == .tab) { end -= 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[start..<end])
        for byte in value where byte < 0x20 && byte != .tab || byte == 0x7F {
            throw .invalidHeaderValue(line: number, name: name.string)
        }
        return RawField(name: name, value: value)
    }
}

/// A header field as byte ranges of the head being parsed.
struct RawField {
    var name: UnsafeRawBufferPointer
    var value: UnsafeRawBufferPointer
}

/// Walks the lines of a complete head, accepting CRLF or a bare LF as line end
/// (RFC 9112 §2.2) and refusing a CR anywhere else.
struct LineCursor {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    var lineNumber = 0

    /// The next line's content range, without its line end; nil at the end of the bytes.
    mutating func next() throws(HTTPParserError) -> Range<Int>? {
        guard position < bytes.count else { return nil }
        lineNumber += 1
        let newline = HTTPRequestParser.indexOfNewline(in: bytes, from: position) ?? bytes.count
        var end = newline
        if end > position && bytes[end - 1] == .cr { end -= 1 }
        let range = position..<end
        position = newline + 1
        if let base = bytes.baseAddress, memchr(base + range.lowerBound, Int32(UInt8.cr), range.count) != nil {
            throw .bareCarriageReturn(line: lineNumber)
        }
        return range
    }
}

extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    var lowercasedASCII: UInt8 { self >= 65 && self <= 90 ? self | 0x20 : self }
}

extension UnsafeRawBufferPointer {
    /// The bytes as a String, invalid UTF-8 replaced.
    var string: String { String(decoding: self, as: UTF8.self) }

    /// The first bytes as printable text for an error message.
    var excerpt: String {
        String(decoding: prefix(64).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Whether the bytes equal the lowercase ASCII `name`, ignoring case.
    func equalsLowercased(_ name: StaticString) -> Bool {
        guard count == name.utf8CodeUnitCount else { return false }
        let other = name.utf8Start
        for index in 0..<count where self[index].lowercasedASCII != other[index] { return false }
        return true
    }
}
