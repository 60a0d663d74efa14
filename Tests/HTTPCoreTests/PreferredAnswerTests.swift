import HTTPCore
import Testing

/// The one reader of what a request prefers: `Prefer` items first, then Prism's query forms.
@Suite struct PreferredAnswerTests {
    @Test func theHeaderWinsOverTheQueryItemByItem() {
        let preferred = PreferredAnswer(
            ["Prefer": "example=fromHeader"], query: [("__example", "fromQuery"), ("__code", "404")])
        #expect(preferred.example?.value == "fromHeader")
        #expect(preferred.example?.form == "Prefer: example=")
        #expect(preferred.code?.value == "404")
        #expect(preferred.code?.form == "__code=")
        #expect(preferred.dynamic == nil)
        #expect(preferred.seed == nil)
    }

    @Test func theFirstOfARepeatedPreferenceCounts() {
        let preferred = PreferredAnswer(["Prefer": "code=500, code=404; seed=7"], query: [])
        #expect(preferred.code?.value == "500")
    }

    @Test func seedHasNoQueryForm() {
        #expect(PreferredAnswer([:], query: [("__seed", "3")]).seed == nil)
        #expect(PreferredAnswer(["Prefer": "seed=3"], query: []).seed?.value == "3")
    }

    @Test(
        arguments: [
            ("__dynamic=true", "true"), ("a=1&__dynamic=false", "false"), ("%5F%5Fdynamic=true", "true"), ("a=1", nil),
            ("dynamic=true", nil),
        ] as [(String, String?)])
    func theRawQueryIsReadForItsForms(query: String, dynamic: String?) {
        #expect(PreferredAnswer([:], rawQuery: query).dynamic?.value == dynamic)
    }

    @Test func noHeaderAndNoQueryAsksNothing() {
        let preferred = PreferredAnswer([:], rawQuery: nil)
        #expect(preferred == PreferredAnswer([:], query: []))
        #expect(preferred.example == nil && preferred.code == nil && preferred.dynamic == nil)
    }
}
