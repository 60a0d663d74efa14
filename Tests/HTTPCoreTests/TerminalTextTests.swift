import HTTPCore
import Testing

@Suite struct TerminalTextTests {
    static let injected = "x\u{1B}[2J\n::error::INJECTED"

    @Test func controlCharactersAreShownAsEscapes() {
        #expect(TerminalText.escape(Self.injected) == #"x\u001b[2J\u000a::error::INJECTED"#)
        #expect(TerminalText.escape("a\tb\r\u{0}\u{7F}\u{85}\u{9B}c") == #"a\u0009b\u000d\u0000\u007f\u0085\u009bc"#)
    }

    @Test func separatorsAndBidiControlsAreShownAsEscapes() {
        #expect(TerminalText.escape("a\u{2028}b\u{2029}c") == #"a\u2028b\u2029c"#)
        #expect(TerminalText.escape("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}") == #"\u202a\u202b\u202c\u202d\u202e"#)
        #expect(TerminalText.escape("\u{2066}\u{2067}\u{2068}\u{2069}") == #"\u2066\u2067\u2068\u2069"#)
    }

    @Test func aLeadingWorkflowCommandIsNeutralised() {
        #expect(TerminalText.escape("::error::x") == #"\u003a:error::x"#)
        #expect(TerminalText.escape("  ::add-mask::x") == #"  \u003a:add-mask::x"#)
        #expect(TerminalText.escape("a ::error::x") == "a ::error::x", "not at a line's start")
        #expect(TerminalText.escape(":x") == ":x")
    }

    @Test func ordinaryTextIsUnchanged() {
        for text in ["", "Rex Smith", "Ånne Lee, DVM 🐕", #"C:\path\u001b"#, "a\u{200B}b", "'vetId' (integer)"] {
            #expect(TerminalText.escape(text) == text)
        }
    }

    @Test func eachLineOfAToolsOwnTextIsEscaped() {
        #expect(
            TerminalText.escapeEachLine("< 200\n< X: a\u{1B}b\n::warning::y")
                == "< 200\n< X: a\\u001bb\n\\u003a:warning::y")
    }
}
