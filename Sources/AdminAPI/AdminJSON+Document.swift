import JSONKit
import MockEngine
import StubFormat

extension AdminJSON {
    /// An operation of the document, for `/__admin/petmock/operations`.
    static func operation(_ operation: DocumentOperation) -> JSONValue {
        var object: JSONObject = [
            "method": .string(operation.method), "path": .string(operation.path), "name": .string(operation.name),
            "statuses": .array(operation.statuses.map(JSONValue.string)),
        ]
        if let operationId = operation.operationId { object["operationId"] = .string(operationId) }
        if let summary = operation.summary { object["summary"] = .string(summary) }
        if let stateful = operation.stateful {
            object["stateful"] = ["role": .string(stateful.role), "collection": .string(stateful.collection)]
        }
        return .object(object)
    }

    /// `petmockDocument` of a serve event the fallback source answered: the operation, the
    /// request's violations and, when the answer breaks its response schema, the answer's
    /// (`responseViolations`).
    static func document(_ request: LoggedRequest) -> JSONValue? {
        guard request.documentOperation != nil || !request.violations.isEmpty || !request.responseViolations.isEmpty
        else { return nil }
        func listed(_ violations: [RequestViolation]) -> JSONValue {
            .array(
                violations.map { violation -> JSONValue in
                    [
                        "location": .string(violation.location), "expected": .string(violation.expected),
                        "found": .string(violation.found), "message": .string(violation.message),
                    ]
                })
        }
        var document: JSONObject = [
            "operation": request.documentOperation.map(JSONValue.string) ?? .null,
            "violations": listed(request.violations),
        ]
        if !request.responseViolations.isEmpty { document["responseViolations"] = listed(request.responseViolations) }
        return .object(document)
    }
}

extension AdminJSON {
    /// A load problem: file, JSON path, severity and message, with the one-line rendering.
    static func problem(_ problem: StubProblem) -> JSONValue {
        var object: JSONObject = [
            "file": .string(problem.file), "path": .string(problem.path), "pointer": .string(pointer(problem.path)),
            "severity": .string(problem.severity.rawValue), "message": .string(problem.message),
            "description": .string(problem.description),
        ]
        if let expected = problem.expected { object["expected"] = .string(expected) }
        if let found = problem.found { object["found"] = .string(found) }
        return .object(object)
    }
}
