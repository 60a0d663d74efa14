import HTTPCore
import JSONKit

/// A response body made from its schema, checked by the one validator before it is served:
/// a value valid against the schema, or the reason none was made (``GenerationProblem``'s
/// message). The same schema and seed always give the same answer, so the load-time check
/// (``GenerationCheck``) and the answer served agree.
package enum GeneratedBody {
    /// What a body is seeded from: a fixed answer's key (operation, status, media type), and
    /// for a dynamic answer the number it reports and can be replayed with.
    package struct Seed: Hashable, Sendable {
        package var key: String
        package var number: UInt64?

        /// A seed from a key, and the number of a dynamic answer.
        package init(key: String, number: UInt64? = nil) {
            self.key = key
            self.number = number
        }
    }

    /// The key a fixed answer is seeded from.
    package static func key(_ operation: ContractOperation, status: String, mediaType: String) -> String {
        "\(operation.name) \(status) \(mediaType)"
    }

    /// A body for `schema`, or why it cannot be made.
    ///
    /// `conformance`, a checker of `contract` kept by a caller that makes many bodies one after
    /// another on one thread (the load-time check of every response), shares the schemas it
    /// compiled between them; the body made is the same with it or without.
    package static func make(
        for schema: Schema, in contract: Contract, seed: Seed, conformance: SchemaConformance? = nil
    ) -> Result<JSONValue, GenerationRefusal> {
        let random =
            seed.number.map { SplitMix64(seed: seed.key, number: $0) } ?? SplitMix64(seed: seed.key)
        var generator = BodyGenerator(
            contract: contract, random: random, varied: seed.number != nil, conformance: conformance)
        let body = generator.value(for: schema)
        if let reason = generator.failures.first { return .failure(GenerationRefusal(reason: reason)) }
        // The final check has a budget of its own, whatever the trials took.
        generator.conformance.refill(BodyGenerator.maximumValidationSteps)
        if let error = generator.conformance.firstError(body, schema) {
            return .failure(GenerationRefusal(reason: "the body made is not valid against the schema: \(error)"))
        }
        return .success(body)
    }
}

/// Why no valid body could be made for a schema.
package struct GenerationRefusal: Error, Hashable, Sendable {
    package var reason: String
}
