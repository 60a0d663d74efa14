import JSONKit
import Testing

/// JSON pointer tokens (RFC 6901) escaped and unescaped scalar by scalar.
@Suite struct JSONPointerTokenTests {
    static let pairs: [(token: String, written: String)] = [
        ("a/b", "a~1b"),
        ("m~n", "m~0n"),
        ("~1", "~01"),
        ("/~", "~1~0"),
        ("", ""),
        // A combining mark after `~` or `/` makes one character of the two; each is still
        // escaped on its own.
        ("~\u{59D}x", "~0\u{59D}x"),
        ("/\u{301}", "~1\u{301}"),
    ]

    @Test(arguments: pairs) func aTokenIsWrittenAndReadBack(token: String, written: String) {
        #expect(JSONPointerToken.escape(token).unicodeScalars.elementsEqual(written.unicodeScalars))
        #expect(JSONPointerToken.unescape(written).unicodeScalars.elementsEqual(token.unicodeScalars))
    }

    @Test func aTildeBeforeAnythingElseIsKeptAsWritten() {
        #expect(JSONPointerToken.unescape("a~2") == "a~2")
        #expect(JSONPointerToken.unescape("a~") == "a~")
        #expect(JSONPointerToken.unescape("~~0") == "~~")
    }
}
