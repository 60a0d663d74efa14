import Testing

@testable import MockEngine

/// The date-time matchers' `actualFormat`, read by Templating's `JavaDatePattern`: quotes as
/// Java's `DateTimeFormatter` reads them, and the letters petmock does not read refused.
@Suite struct DateTimeFormatTests {
    @Test func anEscapedQuoteInsideQuotedTextIsAQuote() throws {
        let format = try DateTimeFormat(actualFormat: "dd/MM/yyyy 'o''clock' HH")
        let parsed = try #require(format.parse("01/06/2021 o'clock 10"))
        #expect((parsed.year, parsed.month, parsed.day, parsed.hour) == (2021, 6, 1, 10))
        #expect(format.parse("01/06/2021 oclock 10") == nil)
    }

    @Test(arguments: [("yyyy 'at", "a quote that is not closed"), ("yyyy QQ", "the pattern letter 'Q'")])
    func anUnreadablePatternIsRefused(pattern: String, reason: String) {
        #expect {
            _ = try DateTimeFormat(actualFormat: pattern)
        } throws: { error in
            (error as? PatternError)?.reason.hasPrefix(reason) == true
        }
    }
}
