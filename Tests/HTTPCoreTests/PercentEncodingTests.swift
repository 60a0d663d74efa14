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
    }
}
