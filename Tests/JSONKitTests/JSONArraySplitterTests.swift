import JSONKit
import Testing

@Suite struct JSONArraySplitterTests {
    func pieces(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return JSONArraySplitter.elementRanges(in: bytes).map { ranges in
            ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    @Test func splitsTopLevelElementsOnly() {
        #expect(
            pieces(#" [1, {"a": [2, 3]}, "x,]y", [[]], true ,null] "#) == [
                "1", #"{"a": [2, 3]}"#, #""x,]y""#, "[[]]", "true", "null",
            ])
        #expect(pieces(#"["a\"],", "b"]"#) == [#""a\"],""#, #""b""#])
        #expect(pieces("[]") == [])
        #expect(pieces(" [ ] ") == [])
    }

    @Test(arguments: ["{}", "[1, 2", "[1,]", "[,1]", "[1] x", "", "\"[1]\"", #"["abc"#])
    func notOneCompleteArrayGivesNil(text: String) {
        #expect(pieces(text) == nil)
    }

    @Test func eachPieceParsesAsItsElement() throws {
        let text = #"[{"firstName": "Rex", "vetId": 1}, {"firstName": "Bella", "vetId": "2"}]"#
        let whole = try JSONValue(parsing: text)
        let parts = try #require(pieces(text)).map { try JSONValue(parsing: $0) }
        #expect(parts == whole.arrayValue)
    }
}
