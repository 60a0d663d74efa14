import HTTPCore

/// One part of a `multipart/*` body (RFC 2046 §5.1): its header fields and its bytes.
package struct MultipartPart: Sendable, Hashable {
    /// The part's header fields (`Content-Disposition`, `Content-Type`, ...).
    package var headers: HTTPHeaders
    /// The part's body, exactly as sent.
    package var body: [UInt8]

    /// Creates a part.
    package init(headers: HTTPHeaders, body: [UInt8]) {
        self.headers = headers
        self.body = body
    }

    /// A parameter of the `Content-Disposition` field (`name`, `filename`), unquoted.
    package func dispositionParameter(_ name: String) -> String? {
        guard let field = headers["Content-Disposition"] else { return nil }
        return MultipartParser.parameter(name, in: field)
    }
}

/// Reads `multipart/form-data` (and `mixed`, `related`, ...) bodies. Bounded: at most
/// ``maximumParts`` parts, ``maximumHeaderBytes`` of header section per part and
/// ``maximumHeaderFields`` fields in it; the body's own size is bounded by the server's request
/// limit. Anything malformed (no boundary, no closing delimiter, a bad header line, too many
/// parts) gives nil, which matching reads as "no match", never an error or a crash.
package enum MultipartParser {
    package static let maximumParts = 200
    package static let maximumHeaderBytes = 8192
    package static let maximumHeaderFields = 32

    /// The parts of the body, or nil when the content type is not `multipart/*` with a boundary,
    /// or the body is not a well-formed multipart body.
    package static func parse(contentType: String, body: [UInt8]) -> [MultipartPart]? {
        let type = contentType.trimmingSpaces()
        guard type.prefix(10).lowercased() == "multipart/", let boundary = parameter("boundary", in: type),
            (1...200).contains(boundary.utf8.count)
        else { return nil }
        return parse(body, boundary: Array(("--" + boundary).utf8))
    }

    private static func parse(_ body: [UInt8], boundary delimiter: [UInt8]) -> [MultipartPart]? {
        // The first delimiter starts the body or follows a line break (after a preamble).
        guard var position = find(delimiter, in: body, from: 0, atLineStart: true) else { return nil }
        var parts: [MultipartPart] = []
        while true {
            position += delimiter.count
            if hasPrefix(body, [0x2D, 0x2D], at: position) { return parts }  // "--": the close delimiter
            // Transport padding, then the line break that ends the delimiter line.
            while position < body.count, body[position] == 0x20 || body[position] == 0x09 { position += 1 }
            guard let afterLine = lineBreakEnd(body, at: position) else { return nil }
            guard parts.count < maximumParts else { return nil }
            guard let (headers, bodyStart) = readHeaders(body, from: afterLine) else { return nil }
            guard let next = find(delimiter, in: body, from: bodyStart, atLineStart: true) else { return nil }
            // The line break before the delimiter belongs to it, not to the part.
            var end = next
            if end >= bodyStart + 1, body[end - 1] == 0x0A { end -= 1 }
            if end >= bodyStart + 1, body[end - 1] == 0x0D { end -= 1 }
            parts.append(MultipartPart(headers: headers, body: Array(body[bodyStart..<max(bodyStart, end)])))
            position = next
        }
    }

    /// The header fields from `start` up to the empty line, and where the part's body begins.
    private static func readHeaders(_ body: [UInt8], from start: Int) -> (HTTPHeaders, Int)? {
        var fields: [(String, String)] = []
        var position = start
        while true {
            guard position - start <= maximumHeaderBytes else { return nil }
            if let end = lineBreakEnd(body, at: position) { return (HTTPHeaders(fields), end) }
            var lineEnd = position
            while lineEnd < body.count, body[lineEnd] != 0x0A {
                lineEnd += 1
                guard lineEnd - start <= maximumHeaderBytes else { return nil }
            }
            guard lineEnd < body.count, fields.count < maximumHeaderFields else { return nil }
            var line = body[position..<lineEnd]
            if line.last == 0x0D { line = line.dropLast() }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            guard name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
            // Trimmed as bytes: a space before a combining mark is one Character with it.
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            fields.append((name, String(decoding: value, as: UTF8.self)))
            position = lineEnd + 1
        }
    }

    /// Where a line break (`\r\n` or `\n`) at `position` ends, or nil when there is none.
    private static func lineBreakEnd(_ body: [UInt8], at position: Int) -> Int? {
        if hasPrefix(body, [0x0D, 0x0A], at: position) { return position + 2 }
        if position < body.count, body[position] == 0x0A { return position + 1 }
        return nil
    }

    private static func hasPrefix(_ body: [UInt8], _ prefix: [UInt8], at position: Int) -> Bool {
        guard position >= 0, position + prefix.count <= body.count else { return false }
        for index in prefix.indices where body[position + index] != prefix[index] { return false }
        return true
    }

    /// The first occurrence of the delimiter at or after `start` that begins a line.
    private static func find(_ delimiter: [UInt8], in body: [UInt8], from start: Int, atLineStart: Bool) -> Int? {
        guard let first = delimiter.first, body.count >= delimiter.count else { return nil }
        var position = start
        while position + delimiter.count <= body.count {
            if body[position] == first, position == 0 || body[position - 1] == 0x0A,
                hasPrefix(body, delimiter, at: position)
            {
                return position
            }
            position += 1
        }
        return nil
    }

    /// A parameter of a header value such as `form-data; name="file"; filename="a.txt"` or
    /// `multipart/form-data; boundary=xyz`, unquoted; the parameter name in any case.
    package static func parameter(_ name: String, in value: String) -> String? {
        // On Unicode scalars: a space before a combining mark is one Character with it.
        for piece in value.unicodeScalars.split(separator: ";").dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            guard String(piece[..<equals]).trimmingSpaces().lowercased() == name.lowercased() else { continue }
            var text = String(piece[piece.index(after: equals)...]).trimmingSpaces().unicodeScalars[...]
            if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
            return String(String.UnicodeScalarView(text))
        }
        return nil
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (as Unicode scalars).
    fileprivate func trimmingSpaces() -> String {
        var scalars = unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
