import PetClient
import Testing

@Suite struct JSONTreeTests {
    struct Key: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(_ string: String) {
            stringValue = string
            intValue = nil
        }
        init(_ index: Int) {
            stringValue = "Index \(index)"
            intValue = index
        }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { self.init(intValue) }
    }

    func parse(_ text: String) -> Result<JSONTree, JSONSyntaxError> {
        JSONTree.parse(Array(text.utf8))
    }

    @Test func parsesEveryKindAndKeepsKeyOrderAndNumberSpelling() throws {
        let tree = try parse(#" {"b":[1,-2.50,3e+2,true,false,null],"a":"x\"\u00e9\ud83d\ude00\n"} "#).get()
        #expect(tree.compactText == #"{"b":[1,-2.50,3e+2,true,false,null],"a":"x\"é😀\n"}"#)
        #expect(tree.value(at: [Key("b"), Key(1)]) == .number("-2.50"))
        #expect(tree.value(at: [Key("b"), Key(3)])?.typeName == "boolean")
        #expect(tree.value(at: [Key("a")]) == .string("x\"é😀\n"))
        #expect(tree.value(at: [Key("b"), Key(9)]) == nil)
        #expect(tree.value(at: [Key("missing")]) == nil)
        #expect(try parse("\"\\/\"").get() == .string("/"))
    }

    @Test(arguments: [
        ("", "unexpected end of input at line 1, column 1"),
        ("[1,", "unexpected end of input at line 1, column 4"),
        ("[1 2]", "expected ',' or ']', found '2' at line 1, column 4"),
        ("{\"a\" 1}", "expected ':', found '1' at line 1, column 6"),
        ("{1:2}", "expected a string key, found '1' at line 1, column 2"),
        ("\"abc", "unexpected end of input in a string at line 1, column 5"),
        ("\"a\u{01}\"", "control character in a string at line 1, column 3"),
        ("\"\\q\"", "invalid escape '\\q' at line 1, column 3"),
        ("\"\\u12g4\"", "invalid hex digit 'g' in a \\u escape at line 1, column 6"),
        ("-", "a number needs digits at line 1, column 2"),
        ("1.", "a number needs digits after '.' at line 1, column 3"),
        ("1e", "a number needs digits in its exponent at line 1, column 3"),
        ("tru", "unexpected end of input at line 1, column 4"),
        ("nul!", "unexpected '!' at line 1, column 4"),
        ("[1]\n x", "unexpected 'x' after the value at line 2, column 2"),
        ("<html>", "unexpected '<' at line 1, column 1"),
    ])
    func syntaxErrorsSayWhatAndWhere(text: String, message: String) {
        guard case .failure(let error) = parse(text) else {
            Issue.record("'\(text)' parsed")
            return
        }
        #expect(error.description == message)
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        guard case .failure(let error) = parse(deep) else {
            Issue.record("deep nesting parsed")
            return
        }
        #expect(error.problem == "nesting deeper than 512 levels")
        #expect(try parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).get() != .null)
    }
}
