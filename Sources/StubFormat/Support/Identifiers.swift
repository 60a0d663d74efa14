/// Random version-4 UUIDs in text form, as WireMock uses for mapping and request ids.
package enum Identifiers {
    /// A new random UUID, lower-case: `5d1a4c52-0000-4000-8000-000000000001`.
    package static func randomUUID() -> String {
        var generator = SystemRandomNumberGenerator()
        return uuid(high: generator.next(), low: generator.next())
    }

    /// A UUID from 128 bits, with the version (4) and variant bits set.
    package static func uuid(high: UInt64, low: UInt64) -> String {
        let high = high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        let hex = hexDigits(high, count: 16) + hexDigits(low, count: 16)
        var text = ""
        text.reserveCapacity(36)
        for (offset, character) in hex.enumerated() {
            if offset == 8 || offset == 12 || offset == 16 || offset == 20 { text.append("-") }
            text.append(character)
        }
        return text
    }

    /// Whether text looks like a UUID: 8-4-4-4-12 hexadecimal digits.
    package static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHexDigit(byte) {
                return false
            }
        }
        return true
    }

    /// A stable 64-bit FNV-1a hash of the text's UTF-8, as 16 hexadecimal digits: the same
    /// in every run and on every machine, for names derived from ids.
    package static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hexDigits(hash, count: 16)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    package static func hexDigits(_ value: UInt64, count: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: count)
        var rest = value
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes[index] = digits[Int(rest & 0xF)]
            rest >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
