import JSONKit
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONValue(parsing: text)
    }

    @Test func keepsIntegersFloatsBigIntegersApart() throws {
        let value = try parse(
            #"[1, -7, 2.0, 1234567890.12, 12345678901234567890123, 1e3, -0, 9223372036854775807, -9223372036854775808, 9223372036854775808]"#
        )
        let elements = try #require(value.arrayValue)
        #expect(elements[0] == .int(1))
        #expect(elements[1] == .int(-7))
        #expect(elements[2] == .number(try #require(JSONNumber(text: "2.0"))))
        #expect(elements[3].doubleValue == 1234567890.12)
        #expect(elements[4].kind == .integer)
        #expect(elements[4].intValue == nil)
        #expect(elements[5].kind == .number)
        #expect(elements[6].kind == .integer)
        #expect(elements[7] == .int(.max))
        #expect(elements[8] == .int(.min))
        #expect(elements[9].intValue == nil)
        #expect(elements[9].kind == .integer)
        #expect(
            value.serialized()
                == "[1,-7,2.0,1234567890.12,12345678901234567890123,1e3,-0,9223372036854775807,-9223372036854775808,9223372036854775808]"
        )
    }

    @Test func keepsKeyOrderAndDuplicateKeys() throws {
        let value = try parse(#"{"b": 1, "a": 2, "b": 3}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "b"])
        #expect(object["b"] == .int(3))
        #expect(object.values(forKey: "b") == [.int(1), .int(3)])
        #expect(object.duplicateKeys == ["b"])
        #expect(value.serialized() == #"{"b":1,"a":2,"b":3}"#)
    }

    @Test func parsesLiteralsStringsAndEscapes() throws {
        let value = try parse(
            #"{"t": true, "f": false, "n": null, "s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00", "u": "héllo"}"#)
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(value["s"] == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
        #expect(value["u"]?.stringValue == "héllo")
        #expect(value["missing"] == nil)
    }

    @Test func skipsByteOrderMarkAndWhitespace() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF, 0x20, 0x0A, 0x5B, 0x31, 0x5D, 0x0D, 0x0A, 0x09]
        #expect(try JSONValue(parsing: bytes) == [1])
    }

    @Test func parsesFromUnsafeBuffer() throws {
        let bytes = Array(#"{"vetId": 12}"#.utf8)
        let value = try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try JSONParser().parse(buffer)
        }
        #expect(value["vetId"]?.intValue == 12)
    }

    struct ErrorCase: Sendable, CustomStringConvertible {
        let input: String
        let kind: JSONParseError.Kind
        let offset: Int
        let line: Int
        let column: Int
        let found: String
        var description: String { input }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(input: "", kind: .endsEarly, offset: 0, line: 1, column: 1, found: "end of input"),
        ErrorCase(input: "[1, 2", kind: .endsEarly, offset: 5, line: 1, column: 6, found: "end of input"),
        ErrorCase(input: "{\"a\":\n  \"b", kind: .endsEarly, offset: 10, line: 2, column: 5, found: "end of input"),
        ErrorCase(input: "[1 2]", kind: .unexpectedCharacter, offset: 3, line: 1, column: 4, found: "'2'"),
        ErrorCase(input: "{\"a\" 1}", kind: .unexpectedCharacter, offset: 5, line: 1, column: 6, found: "'1'"),
        ErrorCase(input: "{a:1}", kind: .unexpectedCharacter, offset: 1, line: 1, column: 2, found: "'a'"),
        ErrorCase(input: "[1,]", kind: .unexpectedCharacter, offset: 3, line: 1, column: 4, found: "']'"),
        ErrorCase(input: "<html>", kind: .unexpectedCharacter, offset: 0, line: 1, column: 1, found: "'<'"),
        ErrorCase(input: "[True]", kind: .unexpectedCharacter, offset: 1, line: 1, column: 2, found: "'True'"),
        ErrorCase(input: "[nul]", kind: .unexpectedCharacter, offset: 1, line: 1, column: 2, found: "'nul'"),
        ErrorCase(input: "01", kind: .invalidNumber, offset: 1, line: 1, column: 2, found: "'1'"),
        ErrorCase(input: "[1.]", kind: .invalidNumber, offset: 3, line: 1, column: 4, found: "']'"),
        ErrorCase(input: "[-a]", kind: .invalidNumber, offset: 2, line: 1, column: 3, found: "'a'"),
        ErrorCase(input: "[1e+]", kind: .invalidNumber, offset: 4, line: 1, column: 5, found: "']'"),
        ErrorCase(input: #"["\x"]"#, kind: .invalidEscape, offset: 3, line: 1, column: 4, found: "'x'"),
        ErrorCase(input: #"["\u12G4"]"#, kind: .invalidEscape, offset: 6, line: 1, column: 7, found: "'G'"),
        ErrorCase(input: #"["\udc00"]"#, kind: .invalidEscape, offset: 2, line: 1, column: 3, found: "'\\'"),
        ErrorCase(input: #"["\ud83dx"]"#, kind: .invalidEscape, offset: 8, line: 1, column: 9, found: "'x'"),
        ErrorCase(
            input: "[\"a\tb\"]", kind: .controlCharacterInString, offset: 3, line: 1, column: 4, found: "byte 0x09"),
        ErrorCase(input: "[1] x", kind: .trailingCharacters, offset: 4, line: 1, column: 5, found: "'x'"),
        ErrorCase(input: "{}{}", kind: .trailingCharacters, offset: 2, line: 1, column: 3, found: "'{'"),
        ErrorCase(input: "\n\n  é]", kind: .unexpectedCharacter, offset: 4, line: 3, column: 3, found: "byte 0xC3"),
    ]

    @Test(arguments: errorCases)
    func reportsWhereAndWhatForEachError(_ errorCase: ErrorCase) {
        #expect {
            try parse(errorCase.input)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.kind == errorCase.kind && error.offset == errorCase.offset && error.line == errorCase.line
                && error.column == errorCase.column && error.found == errorCase.found
        }
    }

    @Test func invalidUTF8IsReportedAtTheBadByte() {
        let bytes: [UInt8] = Array(#"["ab"#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
        do {
            _ = try JSONValue(parsing: bytes)
        } catch {
            #expect(error.kind == .invalidUTF8)
            #expect(error.offset == 4)
        }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: overlong) }
    }

    @Test func truncatedMessageSaysEndsEarly() {
        do {
            _ = try parse(#"[{"firstName": "Rex", "vetId": 1}, {"firstName": "Bo"#)
            Issue.record("expected an error")
        } catch {
            #expect(error.isTruncation)
            #expect(
                error.description.hasPrefix(
                    "JSON ends early at line 1, column 53 (offset 52): expected '\"' to close the string at offset 49"))
        }
    }

    @Test func nestingDepthIsLimited() throws {
        let deep = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect(try JSONValue(parsing: deep, maxDepth: 20).arrayValue?.count == 1)
        do {
            _ = try JSONValue(parsing: deep, maxDepth: 19)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .tooDeep(limit: 19))
            #expect(error.offset == 19)
        }
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: hostile) }
    }

    static let document = #"""
        {"pets": [{"firstName": "Rex", "lastName": "Smith", "vetId": 1},
          {"firstName": "Bo\u00e9", "lastName": null, "vetId": -2.5e3}], "ok": true, "n": false}
        """#

    /// Every proper prefix of a valid document is truncated JSON (never a crash, never another
    /// kind of error), except prefixes that are themselves whole documents.
    @Test func everyPrefixOfAValidDocumentEndsEarly() throws {
        let bytes = Array(JSONParserTests.document.utf8)
        let whole = try JSONValue(parsing: bytes)
        #expect(whole["pets"]?[1]?["vetId"]?.doubleValue == -2500)
        for length in 0..<bytes.count {
            do {
                _ = try JSONValue(parsing: Array(bytes[0..<length]))
                Issue.record("prefix of \(length) bytes parsed")
            } catch {
                #expect(error.kind == .endsEarly, "prefix \(length): \(error)")
                #expect(error.offset == length)
            }
        }
    }

    /// Fed one byte at a time: each single byte either starts a value or is reported, never a
    /// crash; and a number fed digit by digit is whole at every step.
    @Test func singleBytesAndGrowingNumbers() {
        for byte in UInt8.min...UInt8.max {
            do {
                _ = try JSONValue(parsing: [byte])
                #expect((0x30...0x39).contains(byte))
            } catch {
                #expect(error.offset <= 1)
            }
        }
        var digits: [UInt8] = []
        for digit in Array("123456789012345678901234".utf8) {
            digits.append(digit)
            #expect((try? JSONValue(parsing: digits))?.kind == .integer)
        }
    }
}

@Suite struct JSONParserStringRunTests {
    /// A string's plain run ends at its quote, a backslash or a control character, wherever it
    /// falls: at the start, inside, at the end; ASCII and not.
    @Test(arguments: [
        (#""""#, ""), (#""abc""#, "abc"), (#""\"abc""#, "\"abc"), (#""abc\"""#, "abc\""), (#""a\nb""#, "a\nb"),
        (#""é""#, "é"), (#""aé\u00e9""#, "aéé"), (#""\\""#, "\\"), (#""a/b""#, "a/b"),
    ])
    func stringReadsWhole(input: String, expected: String) throws {
        #expect(try JSONParser().parse(Array(input.utf8)) == .string(expected))
        #expect(
            try JSONParser().parse(Array("[\(input),\(input)]".utf8)) == .array([.string(expected), .string(expected)]))
    }

    @Test func unclosedAndControlCharactersAreRefusedWhereTheyAre() {
        #expect(throws: JSONParseError.self) { try JSONParser().parse(Array(#""abc"#.utf8)) }
        do {
            _ = try JSONParser().parse(Array("\"ab\u{1}c\"".utf8))
            Issue.record("a control character was read")
        } catch {
            #expect(error.kind == .controlCharacterInString)
            #expect(error.offset == 3)
        }
    }
}
