/// A name/value pair of a query string or a form body.
public struct QueryItem: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The name, not yet percent-encoded.
    public var name: String
    /// The value, not yet percent-encoded.
    public var value: String

    /// Creates a pair.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Creates a pair from `["name", "value"]`; a missing value is empty.
    public init(arrayLiteral elements: String...) {
        self.init(elements.first ?? "", elements.dropFirst().first ?? "")
    }

    /// The pairs encoded as `application/x-www-form-urlencoded`: `a=1&b=two+words`.
    public static func formEncoded(_ items: [QueryItem]) -> String {
        items.map { percentEncoded($0.name, spaceAsPlus: true) + "=" + percentEncoded($0.value, spaceAsPlus: true) }
            .joined(separator: "&")
    }

    /// The text with every byte outside the unreserved set (RFC 3986 §2.3) and `extra`
    /// percent-encoded; with `spaceAsPlus`, a space becomes `+` as forms do.
    static func percentEncoded(_ text: String, spaceAsPlus: Bool = false, keeping extra: String = "") -> String {
        let kept = Set(extra.utf8)
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
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
                let digits = Array("0123456789ABCDEF".utf8)
                result += "%"
                result.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0x0F)]))
            }
        }
        return result
    }
}
