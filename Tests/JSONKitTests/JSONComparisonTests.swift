import JSONKit
import Testing

@Suite struct JSONComparisonTests {
    func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    @Test func keyOrderAndNumberSpellingDoNotMatter() throws {
        #expect(try json(#"{"a": 1, "b": [1.0, 2]}"#).isEquivalent(to: json(#"{"b": [1, 2.00], "a": 1e0}"#)))
        #expect(try !json(#"{"a": 1}"#).isEquivalent(to: json(#"{"a": "1"}"#)))
        #expect(try !json(#"[1, 2]"#).isEquivalent(to: json(#"[2, 1]"#)))
        #expect(try !json("12345678901234567890").isEquivalent(to: json("12345678901234567891")))
        #expect(try json("1.5e2").isEquivalent(to: json("150")))
    }

    @Test func differenceNamesThePlace() throws {
        let comparison = JSONComparison()
        let difference = try #require(
            comparison.difference(
                expected: json(#"{"pets": [{"vetId": 1}]}"#), actual: json(#"{"pets": [{"vetId": "1"}]}"#)))
        #expect(difference.description == #"$.pets[0].vetId: expected 1, found "1""#)
        let missing = try #require(
            comparison.difference(expected: json(#"{"a": 1, "b": 2}"#), actual: json(#"{"a": 1}"#)))
        #expect(missing.path.description == "$.b")
        let extra = try #require(
            comparison.difference(expected: json(#"{"a": 1}"#), actual: json(#"{"a": 1, "c": 2}"#)))
        #expect(extra.path.description == "$.c")
    }

    @Test func ignoreExtraElementsAllowsMoreInTheActualValue() throws {
        let comparison = JSONComparison(ignoreExtraElements: true)
        #expect(try comparison.matches(expected: json(#"{"a": [1]}"#), actual: json(#"{"a": [1, 2], "b": 3}"#)))
        #expect(try !comparison.matches(expected: json(#"{"a": [1, 2]}"#), actual: json(#"{"a": [1]}"#)))
        #expect(try !comparison.matches(expected: json(#"{"a": [2]}"#), actual: json(#"{"a": [1, 2]}"#)))
    }

    @Test func ignoreArrayOrderMatchesElementsInAnyOrder() throws {
        let comparison = JSONComparison(ignoreArrayOrder: true)
        #expect(
            try comparison.matches(
                expected: json(#"[{"a": 1}, {"b": 2}, 1]"#), actual: json(#"[1, {"b": 2}, {"a": 1}]"#)))
        #expect(try !comparison.matches(expected: json("[1, 1, 2]"), actual: json("[1, 2, 2]")))
        let both = JSONComparison(ignoreArrayOrder: true, ignoreExtraElements: true)
        #expect(try both.matches(expected: json("[3, 1]"), actual: json("[1, 2, 3]")))
    }

    @Test func placeholdersMatchByKind() throws {
        let comparison = JSONComparison(placeholders: true)
        let expected = try json(
            #"{"id": "${json-unit.any-number}", "name": "${json-unit.any-string}", "ok": "${json-unit.any-boolean}", "x": "${json-unit.ignore}", "code": "${json-unit.regex}[A-Z]{3}"}"#
        )
        #expect(
            try comparison.matches(
                expected: expected, actual: json(#"{"id": 2.5, "name": "a", "ok": false, "code": "ABC"}"#)))
        #expect(
            try !comparison.matches(
                expected: expected, actual: json(#"{"id": "2", "name": "a", "ok": false, "code": "ABC"}"#)))
        #expect(
            try !comparison.matches(
                expected: expected, actual: json(#"{"id": 2, "name": "a", "ok": false, "code": "abc"}"#)))
        #expect(
            try !JSONComparison().matches(
                expected: expected, actual: json(#"{"id": 2, "name": "a", "ok": false, "code": "ABC"}"#)))
    }
}
