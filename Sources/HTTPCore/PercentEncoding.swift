extension StringProtocol {
    /// The text with every byte outside RFC 3986's unreserved set (§2.3: letters, digits,
    /// `-._~`) and `extra` percent-encoded as `%XX`; with `spaceAsPlus`, a space becomes `+`
    /// as forms do. The one encoder petkit has (client URLs, queries, forms, live checks).
    package func percentEncoded(spaceAsPlus: Bool = false, keeping extra: String = "") -> String {
        let kept = Set(extra.utf8)
        var result = ""
        result.reserveCapacity(utf8.count)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where spaceAsPlus:
                result += "+"
            case _ where kept.contains(byte):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%"
                result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0x0F)]))
            }
        }
        return result
    }
}

private let hexDigits = Array("0123456789ABCDEF".utf8)
