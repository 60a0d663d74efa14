import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit

extension OpenAPIResponder {
    /// The 500 for a response petmock cannot make a valid body for: what the load-time check
    /// reported, as JSON.
    static func refusal(
        _ operation: ContractOperation, status: String, content: ResponseContent, _ refusal: GenerationRefusal
    ) -> PreparedResponse {
        let problem = GenerationProblem(
            operation: operation.name, status: status, mediaType: content.mediaType,
            pointer: GenerationCheck.pointer(operation, status, content.mediaType), reason: refusal.reason)
        let body: JSONObject = [
            "code": 500, "message": .string(problem.description), "operation": .string(operation.name),
            "status": .string(status), "pointer": .string(problem.pointer),
        ]
        return PreparedResponse(
            HTTPResponse(
                status: HTTPStatus(code: 500), headers: ["Content-Type": "application/json"],
                body: JSONValue.object(body).serializedBytes()))
    }
}
