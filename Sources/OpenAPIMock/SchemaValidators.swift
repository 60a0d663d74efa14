import APISchema

/// The validators of one contract's schemas, each compiled once: a request body documented in
/// several media types, or by several operations (`POST` and `PUT` of one resource), shares
/// one validator rather than compiling every component it reaches again. Used while the
/// checks are made, on one thread.
final class SchemaValidators {
    private let contract: Contract
    private var compiled: [Schema: JSONSchemaValidator] = [:]

    init(contract: Contract) {
        self.contract = contract
    }

    /// The validator of `schema`, compiled the first time it is asked for.
    func validator(for schema: Schema) -> JSONSchemaValidator {
        if let validator = compiled[schema] { return validator }
        let validator = JSONSchemaValidator(schema: schema, in: contract)
        compiled[schema] = validator
        return validator
    }
}
