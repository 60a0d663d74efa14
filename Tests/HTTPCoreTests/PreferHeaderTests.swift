import Testing

@testable import HTTPCore

/// The `Prefer` field read as RFC 7240 writes it, as a value.
@Suite struct PreferHeaderTests {
    static func prefer(_ value: String?) -> PreferHeader {
        var headers = HTTPHeaders()
        if let value { headers.add(name: "Prefer", value: value) }
        return PreferHeader(headers)
    }

    @Test(arguments: [
        ("code=404", "code", "404"),
        ("Code = 404 ", "code", "404"),
        (#"example="a, b"; lang=en"#, "example", "a, b"),
        (#"example="x;y", code=202"#, "code", "202"),
        (#"example="two words""#, "example", "two words"),
        ("respond-async, code=201", "code", "201"),
        ("code=201, code=500", "code", "201"),
        ("example=first;x=y, example=second", "example", "first"),
    ])
    func aPreferenceIsReadAsTheRFCSays(field: String, name: String, expected: String) {
        #expect(Self.prefer(field).value(name) == expected[...])
    }

    /// A combining mark after `;`, `,`, `=` or a quote makes one Character with it; the field's
    /// separators are read by scalar, as its bytes are (found by FuzzPreferHeader).
    @Test(arguments: [
        ("code=404;\u{05C7}\u{FFFD}6 w&&&", "code", "404"),
        ("code=404,\u{0301}x=1", "code", "404"),
        ("example=\"a\"\u{0301}", "example", "\"a\"\u{0301}"),
        ("example=\"a\u{0301}\"", "example", "a\u{0301}"),
    ])
    func aMarkAfterASeparatorDoesNotHideIt(field: String, name: String, expected: String) {
        #expect(Self.prefer(field).value(name) == expected[...])
    }

    @Test func absentOrValuelessPreferencesAreNil() {
        #expect(Self.prefer(nil).value("code") == nil)
        #expect(Self.prefer("respond-async").value("respond-async") == nil)
        #expect(Self.prefer("handling=lenient").value("code") == nil)
    }
}
