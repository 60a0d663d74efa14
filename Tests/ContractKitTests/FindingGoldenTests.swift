import ContractKit
import JSONKit
import PetAppContract
import Testing

/// One small response per finding id, and the exact findings it must produce
/// (`id|level|path|count|expected|actual`).
@Suite struct FindingGoldenTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        var operation = "GET /pets"
        var status = 200
        var contentType: String? = "application/json"
        let body: String
        let expected: [String]
        var expecting: StatusExpectation = .documented
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "conforming", body: #"[{"firstName": "Rex", "lastName": "Smith", "vetId": 1}]"#, expected: []),
        Case(
            name: "required missing",
            body: #"[{"firstName": "Rex", "lastName": "Smith", "vetId": 1}, {"lastName": "Jones", "vetId": 2}]"#,
            expected: ["response-required-property-missing|breaking|$[1].firstName|1|string|absent"]),
        Case(
            name: "optional missing in three items",
            body: #"[{"firstName": "A", "vetId": 1}, {"firstName": "B", "vetId": 1}, {"firstName": "C", "vetId": 2}]"#,
            expected: ["response-optional-property-missing|warning|$[0].lastName|3|string or null|absent"]),
        Case(
            name: "type changed, collapsed with first index",
            body:
                #"[{"firstName": "A", "lastName": "B", "vetId": 1}, {"firstName": "C", "lastName": "D", "vetId": "2"}, {"firstName": "E", "lastName": "F", "vetId": "3"}]"#,
            expected: [
                "response-property-type-changed|breaking|$[1].vetId|2|integer|string \"2\"",
                "response-decode-failed|breaking|$[1].vetId|1|the body decodes as [PetJsonModel]|typeMismatch(Int): Expected to decode Int but found a string instead.",
            ]),
        Case(
            name: "required null",
            body: #"[{"firstName": null, "lastName": "B", "vetId": 1}]"#,
            expected: ["response-required-property-null|breaking|$[0].firstName|1|string|null"]),
        Case(
            name: "optional null", operation: "GET /vets/{id}",
            body: #"{"firstName": "Ann", "lastName": "Lee", "title": null}"#,
            expected: ["response-optional-property-null|warning|$.title|1|string|null"]),
        Case(
            name: "probably renamed",
            body:
                #"[{"firstName": "A", "lastName": "B", "practitionerId": 1}, {"firstName": "C", "lastName": "D", "practitionerId": 2}]"#,
            expected: ["response-property-probably-renamed|breaking|$[0].vetId|2|'vetId' (integer)|'practitionerId': 1"]
        ),
        Case(
            name: "renamed to a similar name among other new keys",
            body: #"[{"firstName": "A", "lastName": "B", "vet_id": 1, "age": 3}]"#,
            expected: [
                "response-property-probably-renamed|breaking|$[0].vetId|1|'vetId' (integer)|'vet_id': 1",
                "response-property-unexpected|info|$[0].age|1|no such property|3",
            ]),
        Case(
            name: "missing with an incompatible new key is no rename",
            body: #"[{"firstName": "A", "lastName": "B", "vet": "Ann"}]"#,
            expected: [
                "response-required-property-missing|breaking|$[0].vetId|1|integer|absent",
                "response-property-unexpected|info|$[0].vet|1|no such property|\"Ann\"",
            ]),
        Case(
            name: "unexpected", operation: "GET /vets/{id}",
            body: #"{"firstName": "Ann", "lastName": "Lee", "title": "DVM", "clinic": {"city": "Oslo"}}"#,
            expected: [#"response-property-unexpected|info|$.clinic|1|no such property|{"city":"Oslo"}"#]),
        Case(
            name: "not JSON", contentType: "text/html", body: "<html><body>Bad gateway</body></html>",
            expected: [
                "response-media-type-unexpected|breaking|$|1|application/json|text/html",
                "response-body-not-json|breaking|$|1|JSON (array)|<html><body>Bad gateway</body></html>",
            ]),
        Case(
            name: "empty", body: "  \n", expected: ["response-body-empty|breaking|$|1|JSON (array)|3 bytes"]),
        Case(
            name: "truncated", body: #"[{"firstName": "Rex", "lastName": "Smi"#,
            expected: [
                #"response-body-truncated|breaking|$|1|complete JSON (array)|[{"firstName": "Rex", "lastName": "Smi"#
            ]),
        Case(
            name: "status not documented", status: 500, body: #"{"code": 500, "message": "boom"}"#,
            expected: [
                #"response-status-unexpected|breaking|$|1|200|500 Internal Server Error (application/json: '{"code": 500, "message": "boom"}')"#
            ]),
        Case(
            name: "documented 404 is fine by default", operation: "GET /vets/{id}", status: 404,
            body: #"{"code": 404, "message": "No vet with that id"}"#, expected: []),
        Case(
            name: "documented 404 for a referenced id is a dangling reference", operation: "GET /vets/{id}",
            status: 404, body: #"{"code": 404, "message": "No vet with that id"}"#,
            expected: ["response-reference-dangling|warning|$|1|200|404 Not Found"],
            expecting: .success(reason: "vetId found in GET /pets: 7")),
        Case(
            name: "5xx where a success was needed", operation: "GET /vets/{id}", status: 500,
            body: #"{"code": 500, "message": "boom"}"#,
            expected: ["response-status-unexpected|breaking|$|1|200|500 Internal Server Error"],
            expecting: .success(reason: "vetId found in GET /pets: 7")),
        Case(
            name: "media type", contentType: "text/plain; charset=utf-8", body: "[]",
            expected: ["response-media-type-unexpected|breaking|$|1|application/json|text/plain; charset=utf-8"]),
        Case(name: "json suffix media type is fine", contentType: "application/problem+json", body: "[]", expected: []),
        Case(
            name: "no content type", contentType: nil, body: "[]",
            expected: ["response-media-type-unexpected|breaking|$|1|application/json|no Content-Type"]),
        Case(
            name: "wrapped in an envelope", body: #"{"items": []}"#,
            expected: [
                #"response-property-type-changed|breaking|$|1|array|object {"items":[]}"#,
                "response-decode-failed|breaking|$|1|the body decodes as [PetJsonModel]|typeMismatch(Array<Any>): Expected to decode Array<Any> but found a dictionary instead.",
            ]),
    ]

    @Test(arguments: cases)
    func findingsAreExact(_ golden: Case) throws {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: golden.operation))
        let response = ObservedResponse(
            url: "http://api.test\(golden.operation.dropFirst(4))", status: golden.status,
            contentType: golden.contentType,
            body: Array(golden.body.utf8))
        let findings = validator.validate(response, for: operation, expecting: golden.expecting).findings
        let rendered = findings.map {
            "\($0.id.rawValue)|\($0.level.rawValue)|\($0.path)|\($0.count)|\($0.expected)|\($0.actual)"
        }
        #expect(rendered == golden.expected)
        for finding in findings {
            #expect(finding.level == finding.id.level)
            #expect(finding.operation == golden.operation)
            #expect(finding.status == golden.status)
        }
    }

    @Test func renameCarriesAHintAndTheSwiftProperty() throws {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: "GET /pets"))
        let body = #"[{"firstName": "A", "lastName": "B", "vetID": 1}]"#
        let finding = try #require(
            validator.validate(ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation).findings
                .first)
        #expect(finding.id == .propertyProbablyRenamed)
        #expect(finding.swift == "PetJsonModel.vetId: Int?")
        #expect(finding.hint?.contains("'vetID'") == true)
        #expect(finding.hint?.contains("similarity 100%") == true)
    }

    @Test func decodeFailureNamesTheCodingPathAndSwiftProperty() throws {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: "GET /pets"))
        let body =
            #"[{"firstName": "A", "vetId": 1}, {"firstName": "B", "vetId": 2}, {"firstName": "C", "vetId": true}]"#
        let findings = validator.validate(
            ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation
        )
        .findings
        let decode = try #require(findings.first { $0.id == .decodeFailed })
        #expect(decode.path == "$[2].vetId")
        #expect(decode.swift == "PetJsonModel.vetId: Int?")
        #expect(findings.contains { $0.id == .propertyTypeChanged && $0.path == "$[2].vetId" })
    }

    // Foundation on Linux reports these as pathless "not valid JSON"; the finding still names
    // the value and why.
    @Test(arguments: [
        ("GET /pets", #"[{"firstName": "A", "vetId": 1.5}]"#, "$[0].vetId", "number 1.5 does not fit in Int"),
        (
            "GET /pets", #"[{"firstName": "A", "vetId": 1}, {"firstName": "B", "vetId": 99999999999999999999}]"#,
            "$[1].vetId", "number 99999999999999999999 does not fit in Int"
        ),
        ("GET /pets/{id}", #"{"firstName": "A", "vetId": 2.5}"#, "$.vetId", "number 2.5 does not fit in Int"),
    ])
    func decodeFailureOfANumberThatDoesNotFitNamesItsPath(
        operationName: String, body: String, path: String, message: String
    ) throws {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: operationName))
        let findings = validator.validate(
            ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation
        )
        .findings
        let decode = try #require(findings.first { $0.id == .decodeFailed })
        #expect(decode.path == path)
        #expect(decode.actual == "typeMismatch(Int): \(message)")
        #expect(decode.swift == "PetJsonModel.vetId: Int?")
    }

    /// Foundation's decoder on Linux reports a fraction where an Int is wanted as invalid JSON
    /// with no coding path; the schema walk still names the place.
    @Test func fractionForAnIntegerIsPlacedByTheSchemaWalk() throws {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: "GET /pets"))
        let body = #"[{"firstName": "A", "vetId": 1}, {"firstName": "C", "vetId": 1.5}]"#
        let findings = validator.validate(
            ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation
        )
        .findings
        #expect(
            findings.contains { $0.id == .propertyTypeChanged && $0.path == "$[1].vetId" && $0.actual == "number 1.5" })
        #expect(findings.contains { $0.id == .decodeFailed })
    }
}

extension FindingGoldenTests {
    /// Two keys missing but only one fits the new key's value: still a rename.
    @Test func renameIsFoundBesideAnotherMissingKey() throws {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: "GET /pets"))
        let body = #"[{"firstName": "Bella", "practitionerId": 2}]"#
        let findings = validator.validate(
            ObservedResponse(url: "u", status: 200, body: Array(body.utf8)), for: operation
        )
        .findings
        #expect(
            findings.map { "\($0.id.rawValue) \($0.path)" } == [
                "response-optional-property-missing $[0].lastName", "response-property-probably-renamed $[0].vetId",
            ])
    }
}
