import HTTPCore
import Testing

/// Header field values cut at separators scalar by scalar: a combining mark (U+0301) after a
/// separator makes one Character with it, and must not hide it.
@Suite struct HeaderFieldPartsTests {
    @Test(arguments: [
        ("a=1; b=2", ";", false, ["a=1", " b=2"]),
        ("a=1;\u{301}b=2", ";", false, ["a=1", "\u{301}b=2"]),
        ("gzip,\u{301}br", ",", false, ["gzip", "\u{301}br"]),
        (";;", ";", false, ["", "", ""]),
        ("", ",", false, [""]),
        (#"a="x,y", b"#, ",", true, [#"a="x,y""#, " b"]),
        (#"a="x,y", b"#, ",", false, [#"a="x"#, #"y""#, " b"]),
        (#"a="x\",y",b"#, ",", true, [#"a="x\",y""#, "b"]),
        ("a=\"x\",\u{301}b", ",", true, ["a=\"x\"", "\u{301}b"]),
    ])
    func partsAreCutAtEverySeparator(text: String, separator: String, quoting: Bool, parts: [String]) throws {
        let scalar = try #require(separator.unicodeScalars.first)
        #expect(text[...].headerParts(separatedBy: scalar, quoting: quoting).map(String.init) == parts)
    }

    @Test func nameAndValueSplitAtTheFirstEquals() throws {
        let (name, value) = try #require("q=\u{301}0.5=x"[...].splitOnce(at: "="))
        #expect(name == "q" && value == "\u{301}0.5=x")
        #expect("novalue"[...].splitOnce(at: "=") == nil)
    }

    @Test(arguments: [
        (#""quoted""#, "quoted"), (#""""#, ""), (#"""#, #"""#), ("plain", "plain"), ("\"a\"\u{301}", "\"a\"\u{301}"),
    ])
    func surroundingQuotesComeOff(text: String, expected: String) {
        #expect(text[...].withoutSurroundingQuotes() == expected[...])
    }
}
