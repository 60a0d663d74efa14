import APISchema
import JSONKit

/// Makes a stored resource valid against one answer schema: the schema compiled once
/// (`JSONSchemaValidator`), its `allOf` flattened once for the required names, and the
/// generator's body the missing fields come from, made once.
struct Conformer: Sendable {
    /// The steps the checks of one resource may take in all.
    static let budget = 1_000_000

    let validator: JSONSchemaValidator
    /// The generator's body for the schema (nil when it makes no object).
    let base: JSONObject?
    /// The required names, `allOf` parts included.
    let required: [String]

    init(_ schema: Schema, _ operation: ContractOperation, status: String, part: String, in contract: Contract) {
        validator = JSONSchemaValidator(schema: schema, in: contract)
        required = ResourceModel.flattenedObject(schema, contract).required
        let key = "\(operation.name) \(status) stateful \(part)"
        if case .success(.object(let object)) = GeneratedBody.make(
            for: schema, in: contract, seed: GeneratedBody.Seed(key: key, number: nil))
        {
            base = object
        } else {
            base = nil
        }
    }

    /// `value` as the schema allows it: fields the schema has that the value lacks are the
    /// generator's, fields the schema refuses are left out (the schema wins).
    func conform(_ value: JSONValue) -> JSONValue {
        guard case .object(let stored) = value, var result = base else { return value }
        var budget = Self.budget
        // The resource with the required fields it lacks, first: an optional field a patch
        // removed stays removed.
        var completed = stored
        for name in required where completed[name] == nil {
            if let generated = result[name] { completed[name] = generated }
        }
        if validator.accepts(.object(completed), budget: &budget) { return .object(completed) }
        var whole = result
        for member in stored.members { whole[member.key] = member.value }
        if validator.accepts(.object(whole), budget: &budget) { return .object(whole) }
        for member in stored.members {
            var trial = result
            trial[member.key] = member.value
            if validator.accepts(.object(trial), budget: &budget) { result = trial }
        }
        return .object(result)
    }
}
