import JSONKit
import Testing

@Suite struct JSONPathTests {
    let pets: JSONValue

    init() throws {
        pets = try JSONValue(
            parsing: #"""
                {"pets": [
                  {"firstName": "Rex", "lastName": "Smith", "vetId": 1, "tags": ["good"]},
                  {"firstName": "Bo", "vetId": 2},
                  {"firstName": "Ann", "lastName": null, "vetId": 3, "owner": {"name": "Kim"}}
                ], "total": 3, "first name": "x", "name": "top"}
                """#)
    }

    @Test(arguments: [
        ("$.total", #"[3]"#),
        ("$['total']", #"[3]"#),
        (#"$["first name"]"#, #"["x"]"#),
        ("$.pets[0].firstName", #"["Rex"]"#),
        ("$.pets[-1].vetId", #"[3]"#),
        ("$.pets[*].vetId", #"[1,2,3]"#),
        ("$.pets.*.firstName", #"["Rex","Bo","Ann"]"#),
        ("$..name", #"["top","Kim"]"#),
        ("$.pets[?(@.vetId == 2)].firstName", #"["Bo"]"#),
        ("$.pets[?(@.vetId > 1)].firstName", #"["Bo","Ann"]"#),
        ("$.pets[?(@.vetId <= 2 && @.lastName)].firstName", #"["Rex"]"#),
        ("$.pets[?(@.lastName == null)].firstName", #"["Ann"]"#),
        ("$.pets[?(!@.lastName)].firstName", #"["Bo"]"#),
        ("$.pets[?(@.firstName =~ /r.*/i)].vetId", #"[1]"#),
        ("$.pets[?(@.firstName != 'Rex' || @.vetId == 1)].vetId", #"[1,2,3]"#),
        ("$.pets[?(@.owner.name == \"Kim\")].vetId", #"[3]"#),
        ("$.pets[?(@.vetId == $.total)].firstName", #"["Ann"]"#),
        ("$[?(@.total == 3)].name", #"["top"]"#),
        ("$[?(@.total == 4)]", #"[]"#),
        ("$.pets[5]", #"[]"#),
        ("$.nothing.deeper", #"[]"#),
        ("$", ""),
    ])
    func evaluates(path: String, expected: String) throws {
        let result = try JSONPath(path).evaluate(on: pets)
        if expected.isEmpty {
            #expect(result == [pets])
        } else {
            #expect(JSONValue.array(result) == (try JSONValue(parsing: expected)))
        }
    }

    @Test(arguments: [
        ("$.total", ["$.total"]),
        ("$.pets[-1].vetId", ["$.pets[2].vetId"]),
        ("$.pets[*].lastName", ["$.pets[0].lastName", "$.pets[2].lastName"]),
        ("$.pets.*.firstName", ["$.pets[0].firstName", "$.pets[1].firstName", "$.pets[2].firstName"]),
        ("$..name", ["$.name", "$.pets[2].owner.name"]),
        ("$.pets[?(@.vetId > 1)]", ["$.pets[1]", "$.pets[2]"]),
        ("$[?(@.total == 3)].total", ["$.total"]),
        ("$['first name']", ["$['first name']"]),
        ("$.pets[0].tags..*", ["$.pets[0].tags[0]"]),
        ("$.nothing", []),
        ("$", ["$"]),
    ])
    func locatesWhatItSelects(path: String, expected: [String]) throws {
        let jsonPath = try JSONPath(path)
        let locations = jsonPath.locations(in: pets)
        #expect(locations.map(\.description) == expected)
        #expect(locations.allSatisfy { $0.isDefinite })
        #expect(locations.compactMap { pets[$0] } == jsonPath.evaluate(on: pets), "the same nodes, in order")
    }

    @Test func matchesMeansSelectsSomething() throws {
        #expect(try JSONPath("$.pets[?(@.vetId == 3)]").matches(pets))
        #expect(try !JSONPath("$.pets[?(@.vetId == 9)]").matches(pets))
        #expect(pets[try JSONPath("$.pets[1].firstName")] == "Bo")
    }

    @Test func rendersFindingPaths() {
        #expect(JSONPath.root.description == "$")
        let path = JSONPath.root.appending(index: 2).appending(key: "vetId")
        #expect(path.description == "$[2].vetId")
        #expect(path.generalized.description == "$[*].vetId")
        #expect(path.isDefinite)
        #expect(
            JSONPath.root.appending(key: "first name").appending(key: "it's").description
                == #"$['first name']['it\'s']"#)
    }

    @Test(arguments: [
        "$.a.b", "$['a b'][0]", "$[*].vetId", "$..name", "$..*", "$[?(@.x == 1)]", "$[?(@.a && @.b > 2)].c",
    ])
    func parsedPathsRenderBackToEquivalentText(text: String) throws {
        let path = try JSONPath(text)
        #expect(try JSONPath(path.description) == path)
    }

    @Test(arguments: [
        ("pets", 0), ("$.", 2), ("$[", 2), ("$['a'", 5), ("$[?(@.x == )]", 11), ("$[?(@.x =~ 'a')]", 14),
        ("$.a b", 4), ("$[abc]", 2),
    ])
    func reportsSyntaxErrors(text: String, offset: Int) {
        do {
            _ = try JSONPath(text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.offset == offset, "\(error)")
        }
    }
}

/// Filter functions as Jayway's JSONPath (and so WireMock's `matchesJsonPath`) has them:
/// `$[?(@.things.size() == 2)]` from WireMock's request-matching documentation.
@Suite struct JSONPathFilterFunctionTests {
    static let document =
        #"{"things": [1, 2], "name": "Rex", "items": [{"prices": [3, 9, 6]}, {"prices": [1.5, 2.5]}]}"#

    @Test(arguments: [
        ("$[?(@.things.size() == 2)]", 1), ("$[?(@.things.size() == 3)]", 0), ("$[?(@.name.length() == 3)]", 1),
        ("$.items[?(@.prices.max() == 9)]", 1), ("$.items[?(@.prices.min() < 2)]", 1),
        ("$.items[?(@.prices.avg() == 6)]", 1), ("$.items[?(@.prices.sum() == 4)]", 1),
        ("$.items[?(@.prices.size() > 1)]", 2), ("$[?(@.name.size() > 10)]", 0),
    ])
    func functions(_ expression: String, _ count: Int) throws {
        let path = try JSONPath(expression)
        #expect(path.evaluate(on: try JSONValue(parsing: Self.document)).count == count, "\(expression)")
    }

    /// A function ending a path, as Jayway's (WireMock's RTA.supportsJsonBodiesWithTemplating
    /// reads `$.arrayprop.length()`): applied to a definite path's node, or to the list an
    /// indefinite path selects.
    @Test(arguments: [
        ("$.things.length()", "[2]"), ("$.things.size()", "[2]"), ("$.name.length()", "[3]"),
        ("$.items[0].prices.max()", "[9]"), ("$.items[1].prices.sum()", "[4]"), ("$.items[0].prices.avg()", "[6]"),
        ("$.items[*].prices.length()", "[2]"), ("$..prices[2].sum()", "[6]"), ("$.length()", "[3]"),
        ("$.missing.length()", "[]"), ("$.name.sum()", "[]"),
    ])
    func pathFunctions(_ expression: String, _ expected: String) throws {
        let path = try JSONPath(expression)
        #expect(path.isDefinite)
        #expect(
            path.evaluate(on: try JSONValue(parsing: Self.document)) == (try JSONValue(parsing: expected)).arrayValue)
        #expect(path.description == expression, "renders as written")
        #expect(path.locations(in: try JSONValue(parsing: Self.document)).isEmpty, "a computed value has no place")
    }

    @Test(arguments: [
        ("$.things.count()", 9, "a function: size(), length()"), ("$.things.length(", 16, "')'"),
        ("$.things.length().x", 17, "the end of the path after a function"),
    ])
    func badPathFunctionsAreErrorsAtTheirPlace(_ expression: String, _ offset: Int, _ expected: String) {
        do {
            _ = try JSONPath(expression)
            Issue.record("no error for \(expression)")
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect("\(error)".contains(expected), "\(error)")
        }
    }

    @Test func anUnknownFunctionIsAnErrorThatListsTheKnownOnes() {
        #expect {
            try JSONPath("$[?(@.things.count() == 2)]")
        } throws: { error in
            "\(error)".contains("size(), length(), min(), max(), avg(), sum()")
        }
    }
}

/// Regular expressions in filters (`=~`) and in `${json-unit.regex}` placeholders are a stub
/// author's: they match in linear time, so a catastrophic pattern answers at once.
@Suite struct JSONPathLinearRegexTests {
    @Test func aCatastrophicFilterPatternAnswers() throws {
        let long = String(repeating: "a", count: 5_000) + "!"
        let document = try JSONValue(parsing: #"[{"name": "\#(long)"}, {"name": "aaa"}]"#)
        let path = try JSONPath("$[?(@.name =~ /(a+)+$/)]")
        #expect(path.evaluate(on: document).count == 1)
        let caseless = try JSONPath("$[?(@.name =~ /AAA/i)]")
        #expect(caseless.evaluate(on: document).count == 1)
        #expect(throws: JSONPathError.self) { try JSONPath(#"$[?(@.name =~ /(a)\1/)]"#) }
    }

    @Test func aCatastrophicPlaceholderAnswers() throws {
        let comparison = JSONComparison(ignoreArrayOrder: false, ignoreExtraElements: false, placeholders: true)
        let expected = try JSONValue(parsing: #"{"name": "${json-unit.regex}(a|aa)+$"}"#)
        let actual = try JSONValue(parsing: #"{"name": "\#(String(repeating: "a", count: 5_000))!"}"#)
        #expect(!comparison.matches(expected: expected, actual: actual))
        #expect(comparison.matches(expected: expected, actual: try JSONValue(parsing: #"{"name": "aaaa"}"#)))
    }
}

/// `firstNode(in:)` is the first node `evaluate(on:)` gives, whatever the path.
@Suite struct JSONPathFirstNodeTests {
    static let document = #"{"a": {"b": [10, {"c": "x"}, null]}, "k": "v", "k": "w", "n": [1, 2, 3], "e": {}}"#

    @Test(arguments: [
        "$", "$.a", "$.a.b", "$.a.b[0]", "$.a.b[1].c", "$.a.b[-1]", "$.a.b[-3]", "$.a.b[-4]", "$.a.b[3]", "$.k",
        "$.missing", "$.a.b.c", "$.k[0]", "$.n[*]", "$..c", "$.n.length()", "$.n.sum()", "$.e.x", "$['a']['b'][1]",
        "$.n[?(@ > 1)]",
    ])
    func theFirstNodeIsTheFirstEvaluated(_ text: String) throws {
        let document = try JSONValue(parsing: Self.document)
        let path = try JSONPath(text)
        #expect(path.firstNode(in: document) == path.evaluate(on: document).first, "\(text)")
    }

    @Test func theFirstNodeIsFound() throws {
        let document = try JSONValue(parsing: Self.document)
        #expect(try JSONPath("$.a.b[1].c").firstNode(in: document) == .string("x"))
        #expect(try JSONPath("$.k").firstNode(in: document) == .string("w"))
        #expect(try JSONPath("$.a.b[9]").firstNode(in: document) == nil)
    }
}
