import JSONKit

extension StubMapping {
    /// The bytes of a mapping file holding these mappings: one mapping as itself, several as
    /// `{"mappings": [...]}`; pretty JSON ending in a newline, so files diff well.
    public static func fileBytes(_ mappings: [StubMapping]) -> [UInt8] {
        let value = mappings.count == 1 ? mappings[0].json : ["mappings": .array(mappings.map(\.json))]
        var bytes = value.serializedBytes(.pretty)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
