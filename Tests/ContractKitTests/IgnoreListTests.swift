import APISchema
import ContractKit
import Testing

@Suite struct IgnoreListTests {
    let finding = Finding(
        id: .optionalPropertyNull, operation: "GET /vets/{id}", path: "$[3].title", expected: "string", actual: "null",
        message: "optional property 'title' is null")

    @Test func matchesByIdPathAndOperation() throws {
        let list = try IgnoreList(
            text: """
                # accepted while the API team fixes it
                response-optional-property-null   $[*].title   GET /vets/{id}
                response-property-unexpected      *
                """, file: "ignore.txt")
        #expect(list.entries.count == 2)
        #expect(list.accepts(finding))
        var other = finding
        other.operation = "GET /vets"
        #expect(!list.accepts(other))
        other = finding
        other.path = "$[3].lastName"
        #expect(!list.accepts(other))
        let unexpected = Finding(id: .propertyUnexpected, operation: "GET /pets", expected: "", actual: "", message: "")
        #expect(list.accepts(unexpected))
        let exact = try IgnoreList(text: "response-optional-property-null $[3].title", file: "i")
        #expect(exact.accepts(finding))
    }

    @Test func reportDropsAcceptedFindingsAndCountsThem() throws {
        let report = VerificationReport(target: "t", contract: "c", operations: ["GET /vets/{id}"], findings: [finding])
        let filtered = report.applying(try IgnoreList(text: "response-optional-property-null *", file: "i"))
        #expect(filtered.findings.isEmpty)
        #expect(filtered.ignored == 1)
    }

    @Test(arguments: [("no-such-id $.a", 1), ("\n\nresponse-body-empty", 3), ("response-body-empty not-a-path", 1)])
    func badLinesAreErrorsWithTheLineNumber(text: String, line: Int) {
        #expect {
            try IgnoreList(text: text, file: "ignore.txt")
        } throws: { error in
            guard case .invalidIgnoreFile(let file, let number, _) = error as? ContractError else { return false }
            return file == "ignore.txt" && number == line
        }
    }
}
