import HTTPHandlerKit

extension HTTPRequestParser {
    /// Consumes a chunk-size line (RFC 9112 §7.1): hexadecimal digits, optional white space
    /// and extensions (ignored), then CRLF. Returns the bytes used; the state moves on to
    /// chunk data, or to the trailer section after the last (zero) chunk.
    mutating func parseChunkLine(_ input: UnsafeRawBufferPointer) throws(HTTPParserError) -> Int {
        var index = 0
        while index < input.count {
            let byte = input[index]
            index += 1
            chunkLineLength += 1
            if chunkLineLength > limits.maxChunkLineLength {
                throw .invalidChunkSize(found: "a line longer than \(limits.maxChunkLineLength) bytes")
            }
            var lineDone = false
            switch chunkLinePhase {
            case .digits:
                if let digit = byte.hexDigitValue {
                    chunkSize = chunkSize << 4 | digit
                    chunkDigits += 1
                    if bodyReceived + chunkSize > limits.maxBodySize {
                        throw .bodyTooLarge(limit: limits.maxBodySize, length: nil)
                    }
                } else if chunkDigits == 0 {
                    throw .invalidChunkSize(found: Self.describe(byte))
                } else if byte == UInt8(ascii: ";") {
                    chunkLinePhase = .fileExtension
                } else if byte == .space || byte == .tab {
                    chunkLinePhase = .afterDigits
                } else if byte == .cr {
                    chunkLinePhase = .sawCR
                } else if byte == .lf {
                    lineDone = true
                } else {
                    throw .invalidChunkSize(found: Self.describe(byte))
                }
            case .afterDigits:
                if byte == UInt8(ascii: ";") {
                    chunkLinePhase = .fileExtension
                } else if byte == .cr {
                    chunkLinePhase = .sawCR
                } else if byte == .lf {
                    lineDone = true
                } else if byte != .space && byte != .tab {
                    throw .invalidChunkSize(found: Self.describe(byte))
                }
            case .fileExtension:
                if byte == .cr {
                    chunkLinePhase = .sawCR
                } else if byte == .lf {
                    lineDone = true
                } else if byte < 0x20 && byte != .tab || byte == 0x7F {
                    throw .invalidChunkSize(found: Self.describe(byte))
                }
            case .sawCR:
                guard byte == .lf else { throw .invalidChunkSize(found: Self.describe(byte)) }
                lineDone = true
            }
            if lineDone {
                let size = chunkSize
                chunkSize = 0
                chunkDigits = 0
                chunkLineLength = 0
                chunkLinePhase = .digits
                if size == 0 {
                    state = .trailers
                } else {
                    bodyReceived += size
                    state = .chunkData(remaining: size)
                }
                return index
            }
        }
        return index
    }

    /// Consumes the trailer section after the last chunk up to its empty line; trailer
    /// fields are counted against the header limit and dropped.
    mutating func parseTrailers(_ input: UnsafeRawBufferPointer) throws(HTTPParserError) -> Int {
        var index = 0
        while index < input.count {
            let byte = input[index]
            index += 1
            trailerBytes += 1
            if trailerBytes > limits.maxHeaderSize { throw .headersTooLarge(limit: limits.maxHeaderSize) }
            if byte == .lf {
                if trailerLineLength == 0 {
                    state = .endPending
                    return index
                }
                trailerLineLength = 0
            } else if byte != .cr {
                trailerLineLength += 1
            }
        }
        return index
    }

    /// A byte for an error message: itself when printable, else `\xNN`.
    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        let hex = String(byte, radix: 16, uppercase: true)
        return "\\x" + (hex.count == 1 ? "0" + hex : hex)
    }
}

extension UInt8 {
    var hexDigitValue: Int? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(self - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(self - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(self - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
