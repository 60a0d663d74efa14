import ContractKit
import Foundation
import JSONKit
import Testing

/// Each corpus document served with one drift: exactly the expected findings (id, operation,
/// path), the same from the JSON and the YAML form.
@Suite struct OAICorpusDriftTests {
    enum Step {
        case key(String)
        case index(Int)
    }

    /// `value` with the member or element at `steps` replaced (`nil` removes a member).
    static func setting(_ value: JSONValue, _ steps: ArraySlice<Step>, to new: JSONValue?) -> JSONValue {
        guard let step = steps.first else { return new ?? .null }
        switch (step, value) {
        case (.key(let key), .object(var object)):
            if steps.count == 1 && new == nil {
                object = JSONObject(object.members.filter { $0.key != key })
            } else {
                object[key] = setting(object[key] ?? .null, steps.dropFirst(), to: new)
            }
            return .object(object)
        case (.index(let index), .array(var elements)):
            elements[index] = setting(elements[index], steps.dropFirst(), to: new)
            return .array(elements)
        default: return value
        }
    }

    struct Drift: Sendable, CustomTestStringConvertible {
        let document: String
        let operation: String
        let steps: [Step]
        let value: JSONValue?
        var status: Int?
        let expected: [String]

        var testDescription: String { document }
    }

    static let drifts: [Drift] = [
        Drift(
            document: "petstore", operation: "GET /pets", steps: [.index(0), .key("id")], value: "1",
            expected: ["response-property-type-changed GET /pets $[0].id"]),
        Drift(
            document: "petstore-expanded", operation: "GET /pets/{id}", steps: [.key("name")], value: nil,
            expected: ["response-required-property-missing GET /pets/{id} $.name"]),
        Drift(
            document: "api-with-examples", operation: "GET /", steps: [], value: .object(JSONObject()), status: 500,
            expected: ["response-status-unexpected GET / $"]),
        Drift(
            document: "callback-example", operation: "POST /streams", steps: [.key("subscriptionId")], value: nil,
            expected: ["response-required-property-missing POST /streams $.subscriptionId"]),
        Drift(
            document: "link-example", operation: "GET /2.0/users/{username}", steps: [.key("uuid")], value: 7,
            expected: ["response-property-type-changed GET /2.0/users/{username} $.uuid"]),
        Drift(
            document: "tictactoe", operation: "GET /board", steps: [.key("winner")], value: "Z",
            expected: ["response-value-not-in-enum GET /board $.winner"]),
        Drift(
            document: "uspto", operation: "GET /", steps: [.key("total")], value: "2",
            expected: ["response-property-type-changed GET / $.total"]),
        Drift(
            document: "github-slice", operation: "GET /users/{username}", steps: [.key("login")], value: nil,
            expected: ["response-required-property-missing GET /users/{username} $.login"]),
    ]

    @Test(arguments: drifts) func driftedServerGivesExactlyTheExpectedFindings(drift: Drift) async throws {
        let document = ExampleResponses(
            document: try JSONValue(parsing: OAICorpusTests.bytes(drift.document, "json")))
        let routes = document.routes.map { route -> ExampleResponses.Route in
            guard route.key == drift.operation else { return route }
            return ExampleResponses.Route(
                method: route.method, template: route.template, status: drift.status ?? route.status,
                body: OAICorpusDriftTests.setting(route.body ?? .null, drift.steps[...], to: drift.value))
        }
        #expect(routes.contains { $0.key == drift.operation }, "no route \(drift.operation)")
        var seen: [[String]] = []
        for form in ["json", "yaml"] {
            let report = try await OAICorpusTests.verify(
                OAICorpusTests.contract(drift.document, form), document: document, routes: routes,
                name: drift.document)
            let relevant = report.findings.filter { $0.level != .info }
            seen.append(relevant.map { "\($0.id.rawValue) \($0.operation) \($0.path)" })
            #expect(report.outcome(strict: false) == .failed)
        }
        #expect(seen[0] == drift.expected)
        #expect(seen[1] == seen[0])
    }
}
