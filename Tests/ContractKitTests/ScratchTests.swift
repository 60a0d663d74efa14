import ContractKit
import Testing

@Test func scratch() throws {
    let (contract, models) = try PetAPIContract.make()
    let validator = ContractValidator(contract: contract, models: models)
    let pets = try #require(contract.operation(named: "GET /pets"))
    for body in [
        #"[{"firstName":"Rex","lastName":"Smith","vetId":1},{"firstName":"Bo","vetId":"2"},{"firstName":"Al","lastName":null,"vetId":"3"}]"#,
        #"[{"firstName":"Rex","lastName":"Smith","practitionerId":1},{"firstName":"Bo","lastName":"X","practitionerId":2}]"#,
        #"{"items":[]}"#, #"[{"firstName":"Rex""#, "<html>502</html>", "",
        #"[{"firstName":null,"lastName":"Smith","vetId":1,"nick":"x"}]"#,
    ] {
        print("== \(body)")
        let result = validator.validate(
            ObservedResponse(url: "http://x/pets", status: 200, body: Array(body.utf8)), for: pets)
        for f in result.findings {
            print(
                f.id.rawValue, f.level, f.path, f.count, "|", f.expected, "|", f.actual, "|", f.swift ?? "-", "|",
                f.message, "|", f.hint ?? "")
        }
    }
}
