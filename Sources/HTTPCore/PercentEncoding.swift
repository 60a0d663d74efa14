extension StringProtocol {
    /// The text with every byte outside RFC 3986's unreserved set (§2.3: letters, digits,
    /// `-._~`) and `extra`'s ASCII characters percent-encoded as `%XX`; with `spaceAsPlus`, a space becomes `+`
    /// as forms do. The one encoder petkit has (client URLs, queries, forms, live checks).
    @inlinable
    package func percentEncoded(spaceAsPlus: Bool = false, keeping extra: String = "") -> String {
        // Inlined, so that the bytes are read from the caller's own string type's storage
        // rather than one by one through a generic view.
        if let encoded = utf8.withContiguousStorageIfAvailable({
            percentEncoding($0, spaceAsPlus: spaceAsPlus, keeping: extra)
        }) {
            return encoded
        }
        return Array(utf8).withUnsafeBufferPointer { percentEncoding($0, spaceAsPlus: spaceAsPlus, keeping: extra) }
    }
}

/// `bytes` (UTF-8) percent-encoded (see `percentEncoded`).
@usableFromInline
func percentEncoding(_ bytes: UnsafeBufferPointer<UInt8>, spaceAsPlus: Bool, keeping extra: String) -> String {
    // Most text (an id, a name) is unreserved bytes only: it is then itself.
    if bytes.allSatisfy(isUnreserved) { return String(decoding: bytes, as: UTF8.self) }
    let kept = Set(extra.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 16)
    for byte in bytes {
        switch byte {
        case _ where isUnreserved(byte): result.append(byte)
        case UInt8(ascii: " ") where spaceAsPlus: result.append(UInt8(ascii: "+"))
        case _ where byte < 0x80 && kept.contains(byte): result.append(byte)
        default:
            result.append(UInt8(ascii: "%"))
            result.append(hexDigits[Int(byte >> 4)])
            result.append(hexDigits[Int(byte & 0x0F)])
        }
    }
    return String(decoding: result, as: UTF8.self)
}

/// Whether a byte is in RFC 3986's unreserved set (§2.3).
private func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        true
    default: false
    }
}

private let hexDigits = Array("0123456789ABCDEF".utf8)
