import JSONKit
import Testing
import YAMLKit

/// YAML as OpenAPI documents use it, read into JSON values.
@Suite struct YAMLReaderTests {
    func read(_ text: String) throws -> JSONValue {
        try YAMLReader().read(Array(text.utf8))
    }

    @Test(arguments: [
        ("a: yes", #"{"a":"yes"}"#), ("a: \"01\"", #"{"a":"01"}"#), ("a: 01", #"{"a":1}"#),
        ("a: ~", #"{"a":null}"#), ("a:", #"{"a":null}"#), ("a: Null", #"{"a":null}"#), ("a: TRUE", #"{"a":true}"#),
        ("a: 'true'", #"{"a":"true"}"#), ("a: 0x1F", #"{"a":31}"#), ("a: 0o17", #"{"a":15}"#),
        ("a: -12", #"{"a":-12}"#),
        ("a: +12", #"{"a":12}"#), ("a: 1.50", #"{"a":1.50}"#), ("a: 1e3", #"{"a":1e3}"#), ("a: .5", #"{"a":0.5}"#),
        ("a: 3.1.0", #"{"a":"3.1.0"}"#), ("a: 123456789012345678901234", #"{"a":123456789012345678901234}"#),
        ("a: !!str 12", #"{"a":"12"}"#), ("a: !!int \"12\"", #"{"a":12}"#), ("200: ok", #"{"200":"ok"}"#),
        ("a: [1, two, {b: c}]", #"{"a":[1,"two",{"b":"c"}]}"#), ("- a\n- b\n", #"["a","b"]"#),
        ("a: \"tab\\there\"", #"{"a":"tab\there"}"#), ("a: 2024-05-01", #"{"a":"2024-05-01"}"#),
    ])
    func coreSchemaScalars(yaml: String, json: String) throws {
        #expect(try read(yaml) == JSONValue(parsing: json), "\(yaml)")
    }

    /// JSON is YAML, so JSONKit's text of a value reads as YAML to the same value, even where
    /// YAML sees a line break JSON does not (NEL, U+2028, U+2029), which a quoted scalar folds.
    @Test(arguments: ["first\u{85}name", "a\u{2028}b", "a\u{2029}b", "opA\u{0711}*zon\u{85}"])
    func jsonTextOfAValueReadsAsYAMLToTheSameValue(text: String) throws {
        let value = JSONValue.object(JSONObject([(text, .string(text))]))
        #expect(try YAMLReader().read(value.serializedBytes()) == value)
        #expect(try YAMLReader().read(value.serializedBytes(.pretty)) == value)
    }

    @Test func multiLineStrings() throws {
        let value = try read(
            """
            literal: |
              line one
              line two
            folded: >
              one
              two
            kept: |+
              end

            """)
        #expect(value["literal"]?.stringValue == "line one\nline two\n")
        #expect(value["folded"]?.stringValue == "one two\n")
        #expect(value["kept"]?.stringValue == "end\n")
    }

    @Test func anchorsAliasesAndMergeKeys() throws {
        let value = try read(
            """
            base: &base {type: object, required: [id]}
            pet:
              <<: *base
              required: [id, name]
            again: *base
            '<<': quoted keys are plain keys
            """)
        #expect(value["pet"] == (try JSONValue(parsing: #"{"required":["id","name"],"type":"object"}"#)))
        #expect(value["again"] == value["base"])
        #expect(value["<<"]?.stringValue == "quoted keys are plain keys")
    }

    @Test(arguments: [
        ("a: 1\na: 2", "line 2, column 1: duplicate key 'a'"),
        ("a: .inf", "'.inf' is not a number JSON can hold"),
        ("a: !custom x", "the tag '!custom' is not supported"),
        ("? [a, b]\n: c", "a mapping key must be a scalar"),
        ("a: *nowhere", "alias '*nowhere' names no anchor"),
        ("a: 1\n---\nb: 2", "a second document"),
        ("a: [1, 2", "line 2, column 1: did not find expected ',' or ']'"),
        ("a:\n  - b\n c: d", "line 3"),
        ("", "the document is empty"),
        ("a: 0x1FFFFFFFFFFFFFFFFF", "does not fit in 64 bits"),
    ])
    func errorsSayWhereAndWhat(yaml: String, expected: String) {
        #expect {
            try read(yaml)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test func aliasExpansionAndDepthAreBounded() {
        // Ten levels of ten aliases each denote ten billion nodes from a few hundred bytes.
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: previous, count: 10).joined(separator: ", ") + "]")
        }
        #expect {
            try read(lines.joined(separator: "\n"))
        } throws: { error in
            "\(error)".contains("aliases expanded")
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect {
            try read(deep)
        } throws: { error in
            "\(error)".contains("nested deeper than")
        }
    }

    @Test func jsonIsYAMLToo() throws {
        let json = #"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "n": [1, 2.5, true, null]}"#
        #expect(try read(json) == JSONValue(parsing: json))
    }
}
