import HTTPCore
import HTTPHandlerKit

/// The header fields that decide how a request is framed and whether its connection stays
/// open, noted while the head is parsed so that nothing is looked up twice.
struct FramingFields {
    var contentLengths: [String] = []
    var transferEncodings: [String] = []
    var hostCount = 0
    /// The first `Host` value that is not `uri-host [ ":" port ]`, if any.
    var invalidHost: String?
    var connectionClose = false
    var connectionKeepAlive = false
    var expectsContinue = false

    mutating func note(_ field: RawField) {
        let name = field.name
        switch name.count {
        case 4 where name.equalsLowercased("host"):
            hostCount += 1
            if invalidHost == nil && !Self.isValidHost(field.value) { invalidHost = field.value.excerpt }
        case 6 where name.equalsLowercased("expect"):
            expectsContinue = field.value.equalsLowercased("100-continue")
        case 10 where name.equalsLowercased("connection"):
            for token in field.value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                let trimmed = UnsafeRawBufferPointer(rebasing: token).trimmingSpaces
                if trimmed.equalsLowercased("close") { connectionClose = true }
                if trimmed.equalsLowercased("keep-alive") { connectionKeepAlive = true }
            }
        case 14 where name.equalsLowercased("content-length"):
            for element in field.value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                contentLengths.append(UnsafeRawBufferPointer(rebasing: element).trimmingSpaces.string)
            }
        case 17 where name.equalsLowercased("transfer-encoding"):
            transferEncodings.append(field.value.string)
        default:
            break
        }
    }

    /// Applies RFC 9112 §6.3 (message body length) and §3.2 (Host) to the noted fields.
    func decide(head: HTTPRequestHead, limits: HTTPParserLimits) throws(HTTPParserError) -> HTTPParsedHead {
        let isHTTP11 = head.version == .http11
        if isHTTP11 && hostCount == 0 { throw .missingHost }
        if hostCount > 1 { throw .multipleHosts }
        if let invalidHost { throw .invalidHost(found: invalidHost) }

        let framing: HTTPParsedHead.BodyFraming
        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty { throw .contentLengthWithTransferEncoding }
            let joined = transferEncodings.joined(separator: ", ")
            let codings = joined.split(separator: ",").map { $0.trimmingASCIISpaces() }.filter { !$0.isEmpty }
            if codings.contains(where: { !$0.equalsIgnoringASCIICase("chunked") }) {
                throw .unsupportedTransferEncoding(found: joined)
            }
            // HTTP/1.0 has no chunked coding: a Transfer-Encoding there smells of smuggling.
            guard codings.count == 1, isHTTP11 else { throw .invalidTransferEncoding(found: joined) }
            framing = .chunked
        } else if let first = contentLengths.first {
            guard let length = Self.decimal(first) else { throw .invalidContentLength(found: first) }
            for other in contentLengths.dropFirst() {
                guard let otherLength = Self.decimal(other) else { throw .invalidContentLength(found: other) }
                if otherLength != length { throw .conflictingContentLengths(found: contentLengths) }
            }
            if length > limits.maxBodySize { throw .bodyTooLarge(limit: limits.maxBodySize, length: length) }
            framing = length == 0 ? .none : .length(length)
        } else {
            framing = .none
        }

        let keepAlive = !connectionClose && (isHTTP11 || connectionKeepAlive)
        let expects = isHTTP11 && expectsContinue && framing != .none
        return HTTPParsedHead(head: head, bodyFraming: framing, keepAlive: keepAlive, expectsContinue: expects)
    }

    /// Whether a `Host` value is `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2–3.2.3):
    /// a bracketed IP literal, or a reg-name (which covers IPv4 addresses) of unreserved
    /// characters, percent-escapes and sub-delims, then an optional colon and digits. Empty is
    /// valid (RFC 9112 §3.2: a target without an authority). Spaces, `/`, `@`, `?`, `#`, `\`
    /// and any byte outside ASCII are not.
    static func isValidHost(_ value: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = value.count
        if count > 0 && value[0] == UInt8(ascii: "[") {
            // IP-literal: IPv6address or IPvFuture; hexadecimal digits, `:`, `.` and, for
            // IPvFuture, unreserved and sub-delims characters up to the closing bracket.
            index = 1
            while index < count && value[index] != UInt8(ascii: "]") {
                let byte = value[index]
                guard byte.isUnreserved || byte.isSubDelimiter || byte == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard index < count, index > 1 else { return false }
            index += 1
        } else {
            while index < count && value[index] != UInt8(ascii: ":") {
                let byte = value[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < count, value[index + 1].hexDigitValue != nil,
                        value[index + 2].hexDigitValue != nil
                    else { return false }
                    index += 3
                    continue
                }
                guard byte.isUnreserved || byte.isSubDelimiter else { return false }
                index += 1
            }
        }
        guard index < count else { return true }
        guard value[index] == UInt8(ascii: ":") else { return false }
        index += 1
        let digits = count - index
        guard digits <= 5 else { return false }
        while index < count {
            guard value[index].isDigit else { return false }
            index += 1
        }
        return true
    }

    /// A non-negative decimal of at most 18 digits (so it fits in an Int), or nil.
    static func decimal(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte.isDigit else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes without leading and trailing spaces and tabs.
    var trimmingSpaces: UnsafeRawBufferPointer {
        var start = 0
        var end = count
        while start < end && (self[start] == .space || self[start] == .tab) { start += 1 }
        while end > start && (self[end - 1] == .space || self[end - 1] == .tab) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}

extension UInt8 {
    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    var isUnreserved: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// RFC 3986 sub-delims: "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=".
    var isSubDelimiter: Bool {
        switch self {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }
}
