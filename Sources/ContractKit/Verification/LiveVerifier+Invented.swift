import APISchema
import HTTPCore
import JSONKit

/// A request body verify makes from an operation's `requestBody`, and its media type.
struct InventedBody: Sendable {
    let bytes: [UInt8]
    let mediaType: String
}

extension LiveVerifier {
    /// A body for an operation that documents one: valid against the schema of its first JSON
    /// media type (the schema's own example when it has a valid one), made by the generator
    /// petmock answers documents with, seeded by the operation so every run sends the same; nil
    /// when the operation documents none, only bodies that are not JSON, or a schema no value
    /// satisfies.
    func inventedBody(for operation: ContractOperation) -> InventedBody? {
        guard let requestBody = operation.requestBody,
            let media = requestBody.content.first(where: { ContractValidator.isJSON($0.mediaType.lowercased()) })
        else { return nil }
        let seed = GeneratedBody.Seed(key: "\(operation.name) request \(media.mediaType)")
        let made = GeneratedBody.make(for: media.schema ?? Schema(), in: validator.contract, seed: seed)
        guard case .success(let value) = made else { return nil }
        return InventedBody(bytes: value.serializedBytes(), mediaType: media.mediaType)
    }

    /// The note for a call with a made-up body that the API refused: a client error (4xx) the
    /// operation does not document says the body was not what the API wanted (a conflict, a
    /// rule the schema does not state), not that its answers drifted; nil for any other answer,
    /// which is judged as usual.
    static func refusalOfInvented(_ status: Int, to call: Call, of operation: ContractOperation) -> String? {
        guard let body = call.body, (400..<500).contains(status), operation.response(for: status) == nil else {
            return nil
        }
        return "\(operation.name): status \(status), not documented, answered a request body made from the "
            + "contract's schema (\(body.mediaType)); not judged"
    }
}
