import JSONKit
import Testing

@testable import MockEngine
@testable import StubFormat

/// WireMock 4's number matchers as stub files spell them (their matching is in MatchingTests'
/// operator table): a JSON number or numeric text as the operand, written back as a number;
/// anything else refused at load, naming the field.
@Suite struct NumberMatcherTests {
    @Test func operandsLoadAndRoundTrip() throws {
        let mapping = try StubMapping(
            json: """
                {"request": {"urlPath": "/items", "queryParameters": {"limit": {"greaterThanNumber": 100},
                   "min": {"lessThanEqualNumber": "2.5"}},
                   "bodyPatterns": [{"matchesJsonPath": {"expression": "$.n", "equalToNumber": 3}}]},
                 "response": {"status": 400}}
                """)
        #expect(
            mapping.request.queryParameters.map(\.matcher) == [
                .number(.greaterThanNumber, 100), .number(.lessThanEqualNumber, 2.5),
            ])
        #expect(mapping.request.bodyPatterns == [.matchesJsonPath("$.n", .number(.equalToNumber, 3))])
        #expect(mapping.request.queryParameters[0].matcher.json.serialized() == #"{"greaterThanNumber":100}"#)
        #expect(mapping.request.queryParameters[1].matcher.json.serialized() == #"{"lessThanEqualNumber":2.5}"#)
        #expect(mapping.request.queryParameters[1].matcher.description == "lessThanEqualNumber 2.5")
        #expect(try StubMapping(json: mapping.json) == mapping)
    }

    @Test(arguments: [
        (#""ten""#, "string 'ten'"), ("true", "boolean true"), ("null", "null"), (#""1e""#, "string '1e'"),
    ])
    func aNonNumberIsRefusedNamingTheField(operand: String, found: String) throws {
        let stubs = try TemporaryStubs()
        stubs.write(
            "mappings/bad.json", #"{"request": {"urlPath": "/a", "headers": {"X-N": {"lessThanNumber": \#(operand)}}}}"#
        )
        let report = try StubLoader(root: stubs.root).load()
        let problem = try #require(report.problems.first)
        #expect(
            problem.description
                == "\(stubs.root)/mappings/bad.json: error: $.request.headers['X-N'].lessThanNumber: expected a number "
                + "(or text holding one, such as \"2.5\"), found \(found)")
        #expect(report.mappings.isEmpty)
    }
}
