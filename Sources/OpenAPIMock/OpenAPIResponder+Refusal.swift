import APISchema
import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine

extension OpenAPIResponder {
    /// The 500 for a response petmock cannot make a valid body for: a problem document saying
    /// what the load-time check reported, with the operation, the documented status and the
    /// JSON pointer of the schema.
    static func refusal(
        _ operation: ContractOperation, status: String, content: ResponseContent, _ refusal: GenerationRefusal
    ) -> PreparedResponse {
        let problem = GenerationProblem(
            operation: operation.name, status: status, mediaType: content.mediaType,
            pointer: GenerationCheck.pointer(operation, status, content.mediaType), reason: refusal.reason)
        return ProblemDocument.response(
            status: 500, detail: problem.description,
            members: [
                "operation": .string(operation.name), "documentedStatus": .string(status),
                "pointer": .string(problem.pointer),
            ])
    }
}

extension OpenAPIResponder {
    /// The operation's own answer to a request refused with `status` (400, 415 or 422), as
    /// Prism answers an invalid request: the answer documented for that status, else, for a 400
    /// or 422, the one documented for 422, else for 400; else the status's range (`4XX`), else
    /// `default`, sent with the refusal's status. Its example or a generated body, by `Accept`
    /// (the first media type when none is acceptable); nil when the operation documents none
    /// of them with a body (`content`), or its answer cannot be made.
    ///
    /// When the request asks for that status (`Prefer: code=422, example=NAME`, `?__code=`,
    /// `?__example=`), the example it names is the one sent, as Prism sends it, and one that
    /// answer does not have is the 404 that lists its examples; an example named beside another
    /// status (`code=200, example=ok`) names one of that status's and is not looked for here.
    ///
    /// Its `Petmock-Violations` field says how many violations there are and the first (the
    /// journal has them all), since its body, unlike the problem document's, does not.
    func documentedRefusal(
        route index: Int, status: Int, accept: String?, requested: Preference? = nil,
        violations: [RequestViolation]
    ) -> PreparedResponse? {
        let operation = routes[index].operation
        // Only an answer with a body to send counts: a status documented with no `content`
        // would hide the violations for nothing.
        let withBody = operation.responses.filter { $0.mediaType != nil }
        let alternatives = status == 415 ? [status] : [status, 422, 400]
        let code = alternatives.first { code in withBody.contains { $0.status == String(code) } } ?? status
        guard let chosen = operation.documentedStatus(for: code), withBody.contains(where: { $0.status == chosen })
        else { return nil }
        let example = requested?.code == code ? requested?.example : nil
        let preference = Preference(code: code, example: example)
        // The 404 of an example the answer lacks (its status is documented, so nothing else).
        func missingExample(_ answer: PreparedResponse) -> Bool { example != nil && answer.response.status.code == 404 }
        var documented = answer(operation, preference: preference, accept: accept)
        if documented.response.status.code != code && !missingExample(documented) {
            documented = answer(operation, preference: preference, accept: nil)
        }
        if missingExample(documented) { return documented }
        guard documented.response.status.code == code else { return nil }
        var response = documented.response
        response.headers.add(name: "Petmock-Violations", value: Self.violationsField(violations))
        return PreparedResponse(response)
    }

    /// `2; query.n: expected integer, found 'x'`: the number of violations and the first, in
    /// printable ASCII (anything else escaped as `\u{…}`), so no client chokes on the field.
    static func violationsField(_ violations: [RequestViolation]) -> String {
        var field = "\(violations.count)"
        guard let first = violations.first else { return field }
        field += "; "
        for scalar in first.description.unicodeScalars {
            // A violation's parts are cut short already; the field is bounded all the same, in
            // what it sends (an escaped character takes up to 10).
            if field.utf8.count >= 300 {
                field += "..."
                break
            }
            if (0x20..<0x7F).contains(scalar.value) {
                field.unicodeScalars.append(scalar)
            } else {
                field += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return field
    }
}
