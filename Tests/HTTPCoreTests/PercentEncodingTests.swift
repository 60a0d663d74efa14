import HTTPCore
import Testing

/// The one percent-encoder: unreserved bytes kept, the rest `%XX`, and back.
@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("a-b.c_d~9", false, "", "a-b.c_d~9"),
        ("a b/c?d=é", false, "", "a%20b%2Fc%3Fd%3D%C3%A9"),
        ("a b+c", true, "", "a+b%2Bc"),
        ("/pets/{id}:x", false, "/:", "/pets/%7Bid%7D:x"),
    ])
    func encodes(text: String, spaceAsPlus: Bool, keeping: String, expected: String) {
        let encoded = text.percentEncoded(spaceAsPlus: spaceAsPlus, keeping: keeping)
        #expect(encoded == expected)
        #expect(encoded.removingPercentEncoding(plusAsSpace: spaceAsPlus) == text)
        #expect(text[...].percentEncoded(spaceAsPlus: spaceAsPlus, keeping: keeping) == expected)
    }

    /// Only `keeping`'s ASCII characters are kept: a character of more than one byte is always
    /// encoded, byte by byte, as UTF-8.
    @Test func keepingKeepsASCIIOnly() {
        #expect("é/x".percentEncoded(keeping: "é/") == "%C3%A9/x")
    }

    @Test(
        arguments: [
            ("a%20b", false, "a b"), ("a+b", false, "a+b"), ("a+b", true, "a b"), ("plain", true, "plain"),
            ("%C3%A9t%C3%A9", false, "été"), ("%e2%82%ac", false, "€"), ("%", false, nil), ("%4", false, nil),
            ("x%zz", false, nil), ("%C3", false, nil), ("%00", false, "\u{0}"),
        ] as [(String, Bool, String?)])
    func decodes(text: String, plusAsSpace: Bool, expected: String?) {
        #expect(text.removingPercentEncoding(plusAsSpace: plusAsSpace) == expected)
        #expect(("/" + text).dropFirst().removingPercentEncoding(plusAsSpace: plusAsSpace) == expected)
    }
}
