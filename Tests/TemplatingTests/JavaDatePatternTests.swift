import Testing

@testable import Templating

/// The one reader of Java date patterns, which templating's formats and the date-time matchers'
/// `actualFormat` share.
@Suite struct JavaDatePatternTests {
    typealias Piece = JavaDatePattern.Piece

    static let cases: [(pattern: String, pieces: [Piece], unclosed: Bool)] = [
        ("", [], false),
        (
            "yyyy-MM-dd'T'HH",
            [
                .field("y", 4), .literal("-"), .field("M", 2), .literal("-"), .field("d", 2),
                .literal("T"), .field("H", 2),
            ], false
        ),
        ("''", [.literal("'")], false),
        ("'o''clock' h", [.literal("o'clock"), .literal(" "), .field("h", 1)], false),
        (
            "EEE, d MMM",
            [.field("E", 3), .literal(","), .literal(" "), .field("d", 1), .literal(" "), .field("M", 3)], false
        ),
        ("QQ/", [.field("Q", 2), .literal("/")], false),
        ("HH 'at", [.field("H", 2), .literal(" "), .literal("at")], true),
    ]

    @Test(arguments: cases)
    func piecesOfAPattern(pattern: String, pieces: [Piece], unclosed: Bool) {
        let read = JavaDatePattern(pattern)
        #expect(read.pieces == pieces)
        #expect(read.hasUnclosedQuote == unclosed)
    }

    /// Templating's formatter: an escaped quote is written, an unknown letter is refused by name
    /// and otherwise kept as text.
    @Test func theTemplatingFormatterUsesThePieces() {
        let milliseconds: Int64 = 1_715_769_000_250  // 2024-05-15T10:30:00.250Z
        #expect(JavaDateFormat("h 'o''clock', EEEE").format(milliseconds, offsetSeconds: 0) == "10 o'clock, Wednesday")
        #expect(JavaDateFormat.unknownLetter(in: "yyyy 'Q' QQ") == "Q")
        #expect(JavaDateFormat.unknownLetter(in: "yyyy 'Q'") == nil)
        #expect(JavaDateFormat("yyyy'-'MM").parse("2024-05") == 1_714_521_600_000)
    }
}
