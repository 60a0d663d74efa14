import APISchema

/// The load-time check of a document: every response schema that has no example is generated
/// from, as it would be answered, and each one petmock cannot make a valid body for is a
/// ``GenerationProblem`` (the operation then answers that status with a 500 naming it).
///
/// ```swift
/// for problem in GenerationCheck.problems(in: contract) { print(problem) }
/// ```
package enum GenerationCheck {
    /// The responses no valid body can be made for, in document order.
    package static func problems(in contract: Contract) -> [GenerationProblem] {
        var problems: [GenerationProblem] = []
        // One checker for every body, so that each component is compiled once, not once per
        // response (Kubernetes' 661 operations reach the same few hundred components).
        let conformance = SchemaConformance(contract: contract)
        for operation in contract.operations {
            for response in operation.responses {
                for content in OpenAPIResponder.contents(of: response) {
                    guard let schema = content.schema, content.examples.isEmpty, content.namedExamples.isEmpty
                    else { continue }
                    let seed = GeneratedBody.Seed(
                        key: GeneratedBody.key(operation, status: response.status, mediaType: content.mediaType))
                    guard
                        case .failure(let refusal) = GeneratedBody.make(
                            for: schema, in: contract, seed: seed, conformance: conformance)
                    else { continue }
                    problems.append(
                        GenerationProblem(
                            operation: operation.name, status: response.status, mediaType: content.mediaType,
                            pointer: pointer(operation, response.status, content.mediaType), reason: refusal.reason))
                }
            }
        }
        return problems
    }

    /// The schema's JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func pointer(_ operation: ContractOperation, _ status: String, _ mediaType: String) -> String {
        let tokens = [
            "paths", operation.path, operation.method.rawValue.lowercased(), "responses", status, "content",
            mediaType, "schema",
        ]
        return DocumentPointer.make(tokens)
    }
}
