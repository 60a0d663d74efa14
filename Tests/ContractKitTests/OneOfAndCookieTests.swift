import APISchema
import ContractKit
import HTTPCore
import JSONKit
import Testing

/// `oneOf` is exactly-one (a discriminator, when it names the branch, decides alone); numbers
/// compare by value for `enum`/`const`; cookie parameters are read, sent and compared.
@Suite struct OneOfAndCookieTests {
    static let components = ##"""
        {"Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "kind": {"type": "string"}}},
         "Aged": {"type": "object", "required": ["age"], "properties": {"age": {"type": "integer"}, "kind": {"type": "string"}}}}
        """##
    static let branches = ##"[{"$ref": "#/components/schemas/Named"}, {"$ref": "#/components/schemas/Aged"}]"##

    @Test func aValueMatchingTwoOneOfBranchesIsAFinding() throws {
        let oneOf = ##"{"oneOf": \##(Self.branches)}"##
        #expect(
            try findings(schema: oneOf, components: Self.components, body: ##"{"name": "Rex", "age": 3, "kind": "x"}"##)
                == [
                    "response-value-matches-several-branches $"
                ])
        #expect(
            try findings(schema: oneOf, components: Self.components, body: ##"{"name": "Rex", "kind": "x"}"##) == [])
        // anyOf allows both; a discriminator naming the branch decides alone.
        let anyOf = ##"{"anyOf": \##(Self.branches)}"##
        #expect(
            try findings(schema: anyOf, components: Self.components, body: ##"{"name": "Rex", "age": 3, "kind": "x"}"##)
                == ["response-property-unexpected $.age"])
        let discriminated = ##"{"oneOf": \##(Self.branches), "discriminator": {"propertyName": "kind"}}"##
        #expect(
            try findings(
                schema: discriminated, components: Self.components,
                body: ##"{"kind": "Named", "name": "Rex", "age": 3}"##)
                == ["response-property-unexpected $.age"])
        // Disjoint branches (a string or an array) never both match.
        let disjoint = ##"{"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}"##
        #expect(try findings(schema: disjoint, body: ##"["a"]"##) == [])
    }

    @Test func oneOfSurvivesWritingAndReading() throws {
        let text =
            ##"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}, "components": {"schemas": {"Either": {"oneOf": [{"type": "string"}, {"type": "integer"}]}, "Any": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}}"##
        let contract = try OpenAPIReader().read(Array(text.utf8), source: "t.json")
        let written = OpenAPIWriter().text(contract)
        #expect(written.contains(##""oneOf""##) && written.contains(##""anyOf""##))
        #expect(try OpenAPIReader().read(Array(written.utf8), source: "w.json") == contract)
    }

    @Test func numbersCompareByValueForEnumAndConst() throws {
        #expect(JSONValue.int(2).isEquivalent(to: try JSONValue(parsing: Array("2.0".utf8))))
        #expect(try findings(schema: ##"{"type": "number", "enum": [2, 3]}"##, body: "2.0") == [])
        #expect(try findings(schema: ##"{"type": "number", "enum": [2.0, 3]}"##, body: "2") == [])
        #expect(try findings(schema: ##"{"const": 2}"##, body: "2.0") == [])
        #expect(try findings(schema: ##"{"type": "integer", "const": 2}"##, body: "2.0") == [])
        #expect(try findings(schema: ##"{"const": 2}"##, body: "2.5") == ["response-value-not-in-enum $"])
    }

    static let cookieContract = ##"""
        {"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
         "paths": {"/me": {"get": {"parameters": [
            {"name": "session", "in": "cookie", "required": true, "schema": {"type": "string", "example": "abc 1"}},
            {"name": "theme", "in": "cookie", "schema": {"type": "string"}}],
          "responses": {"200": {"description": "ok"}}}}}}
        """##

    @Test func cookieParametersAreSentInTheCookieHeader() async throws {
        let contract = try OpenAPIReader().read(Array(Self.cookieContract.utf8), source: "c.json")
        #expect(contract.operations[0].parameters.map(\.location) == [.cookie, .cookie])
        let seen = LiveVerifierParameterTests.RequestLog()
        let transport = ClosureTransport { request throws(HTTPClientError) in
            seen.append(request.headers.fields.filter { $0.name == "Cookie" }.map(\.value).joined())
            return HTTPClientResponse(status: HTTPStatus(code: 200), headers: [:], body: [])
        }
        let verifier = LiveVerifier(
            contract: contract, transport: transport,
            configuration: .init(parameterValues: [ParameterValue(name: "theme", value: "dark")]))
        let report = await verifier.verify(baseURL: "http://api.test", contractName: "c.json")
        #expect(report.errors.isEmpty && report.skipped.isEmpty)
        #expect(seen.all == ["session=abc%201; theme=dark"])
    }

    @Test func cookieParametersAreDiffed() throws {
        let old = try OpenAPIReader().read(Array(Self.cookieContract.utf8), source: "old.json")
        let newText = Self.cookieContract.replacing(
            ##"{"name": "theme", "in": "cookie", "schema""##,
            with: ##"{"name": "theme", "in": "cookie", "required": true, "schema""##)
        let new = try OpenAPIReader().read(Array(newText.utf8), source: "new.json")
        #expect(
            ContractDiff().changes(old: old, new: new).map { "\($0.id.rawValue) \($0.path)" } == [
                "request-parameter-became-required cookie.theme"
            ])
    }
}
