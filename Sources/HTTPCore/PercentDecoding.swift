extension StringProtocol {
    /// The string with `%XX` escapes decoded (and `+` as space when `plusAsSpace`), or nil
    /// when an escape is malformed or the result is not UTF-8.
    @inlinable
    package func removingPercentEncoding(plusAsSpace: Bool = false) -> String? {
        // Inlined, so that the bytes are read from the caller's own string type's storage
        // rather than one by one through a generic view.
        if let decoded = utf8.withContiguousStorageIfAvailable({ percentDecoded($0, plusAsSpace: plusAsSpace) }) {
            return decoded
        }
        return Array(utf8).withUnsafeBufferPointer { percentDecoded($0, plusAsSpace: plusAsSpace) }
    }
}

/// `bytes` (UTF-8) with `%XX` escapes decoded, or nil (see `removingPercentEncoding`).
@usableFromInline
func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
    // Most text has nothing to decode: it is then itself.
    guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
        return String(decoding: bytes, as: UTF8.self)
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "%") {
            guard index + 1 < bytes.count, let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1])
            else { return nil }
            index += 2
            decoded.append(high << 4 | low)
        } else if plusAsSpace && byte == UInt8(ascii: "+") {
            decoded.append(UInt8(ascii: " "))
        } else {
            decoded.append(byte)
        }
    }
    return String(validating: decoded, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
