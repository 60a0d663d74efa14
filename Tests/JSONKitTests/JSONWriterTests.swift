import JSONKit
import Testing

@Suite struct JSONWriterTests {
    let value: JSONValue = [
        "name": "Rex \"the dog\"\n", "vetId": 1, "weight": 12.5, "tags": [], "meta": [:], "lastName": nil,
        "nested": ["b": [true, false], "a": 1],
    ]

    @Test func compactIsOneLineInSourceOrder() {
        #expect(
            value.serialized()
                == #"{"name":"Rex \"the dog\"\n","vetId":1,"weight":12.5,"tags":[],"meta":{},"lastName":null,"nested":{"b":[true,false],"a":1}}"#
        )
    }

    @Test func prettyUsesTwoSpaces() {
        let expected = """
            {
              "name": "Rex \\"the dog\\"\\n",
              "vetId": 1,
              "weight": 12.5,
              "tags": [],
              "meta": {},
              "lastName": null,
              "nested": {
                "b": [
                  true,
                  false
                ],
                "a": 1
              }
            }
            """
        #expect(value.serialized(.pretty) == expected)
    }

    @Test func sortedKeysAreByteOrderedAndStableForDuplicates() {
        let object = JSONValue.object(JSONObject([("b", 1), ("B", 2), ("a", 3), ("b", 4), ("é", 5)]))
        #expect(object.serialized(.sortedKeys) == #"{"B":2,"a":3,"b":1,"b":4,"é":5}"#)
    }

    @Test(arguments: [
        ("\u{0}", #""\u0000""#), ("\u{1F}", #""\u001f""#), ("\u{8}\u{C}\t\r\n", #""\b\f\t\r\n""#),
        ("a/b", #""a/b""#), ("é😀", "\"é😀\""), ("\u{7F}", "\"\u{7F}\""),
        // YAML's line breaks beyond JSON's, and their neighbours written as they are.
        ("a\u{85}b\u{2028}\u{2029}", #""a\u0085b\u2028\u2029""#),
        ("\u{84}\u{2027}\u{202A}", "\"\u{84}\u{2027}\u{202A}\""),
        // Runs between escapes are copied whole: escapes first, last and side by side, and a
        // lead byte of U+2028's or NEL's that starts another character.
        ("\"plain run\\ and € then\n", #""\"plain run\\ and € then\n""#),
        ("\n\u{2028}€\u{85}\u{84}ab", "\"\\n\\u2028€\\u0085\u{84}ab\""), ("ab€", "\"ab€\""),
    ])
    func escapesExactlyWhatJSONRequires(input: String, expected: String) throws {
        let value = JSONValue.string(input)
        #expect(value.serialized() == expected)
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test func escapesSlashesOnRequest() {
        #expect(JSONValue.string("</script>").serialized(.escapeSlashes) == #""<\/script>""#)
    }

    @Test(arguments: [
        "2.0", "1234567890.12", "1e-05", "-0.0", "12345678901234567890123", "1E+2", "0.1",
    ])
    func numbersRoundTripAsWritten(text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(value.serialized() == text)
    }

    @Test func doublesBecomeShortestText() throws {
        #expect(JSONValue.double(2) == .number(try #require(JSONNumber(text: "2.0"))))
        #expect(JSONValue.double(.infinity) == .null)
        #expect(JSONValue.double(0.1).serialized() == "0.1")
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "1.5e3")?.doubleValue == 1500)
    }

    @Test func roundTripOfCompactInputIsByteExact() throws {
        let text = #"{"a":[1,2.50,{"b":null,"b":"x"}],"c":"\u00e9","d":-1.0e10}"#
        // Escapes are normalised (é as UTF-8), everything else stays byte for byte.
        #expect(try JSONValue(parsing: text).serialized() == #"{"a":[1,2.50,{"b":null,"b":"x"}],"c":"é","d":-1.0e10}"#)
    }
}

@Suite struct JSONNumberValueTests {
    @Test(arguments: [
        ("2", true), ("2.0", true), ("-2.000", true), ("1e3", true), ("1.5e1", true), ("250e-2", false),
        ("200e-2", true), ("0.0e-5", true), ("2.5", false), ("1e-3", false), ("1.25e1", false),
    ])
    func wholeNumbersHoweverWritten(text: String, whole: Bool) throws {
        #expect(try #require(JSONNumber(text: text)).isWholeNumber == whole)
    }

    @Test func twoAndTwoPointZeroAreEquivalent() throws {
        let twoPointZero = JSONValue.number(try #require(JSONNumber(text: "2.0")))
        #expect(JSONValue.int(2).isEquivalent(to: twoPointZero))
        #expect(twoPointZero.isEquivalent(to: .int(2)))
        #expect(!JSONValue.int(2).isEquivalent(to: .number(try #require(JSONNumber(text: "2.5")))))
    }
}

@Suite struct JSONWriterIntegerTests {
    /// Integers are written digit by digit into the output: every magnitude, both signs.
    @Test(
        arguments: [
            (0, "0"), (7, "7"), (-7, "-7"), (10, "10"), (1_234_567_890, "1234567890"), (-1_000, "-1000"),
            (Int64.max, "9223372036854775807"), (Int64.min, "-9223372036854775808"),
        ] as [(Int64, String)])
    func integerIsItsDecimalText(number: Int64, text: String) {
        #expect(JSONValue.int(number).serialized() == text)
        #expect(JSONValue.array([.int(number), .int(number)]).serialized() == "[\(text),\(text)]")
    }
}
