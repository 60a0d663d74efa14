import JSONKit

/// A Postman environment export (`{"name": ..., "values": [{"key", "value", "enabled"}]}`):
/// values for a collection's `{{variables}}`, over the collection's own.
public struct PostmanEnvironment: Sendable, Hashable {
    /// The enabled values, by name.
    public let values: [String: String]
    /// What was left out of the file (an entry without a string `key`).
    public let problems: [StubProblem]

    /// Reads an environment from its JSON; refused when there is no `values` array.
    public init(json: JSONValue, source: String) throws(PostmanCollectionError) {
        guard let values = json["values"]?.arrayValue else {
            throw .notAnEnvironment(
                source: source, path: "$.values",
                reason: "expected an array of {key, value, enabled}, found "
                    + (json["values"].map(MappingDecoder.describe) ?? "nothing"))
        }
        var problems: [StubProblem] = []
        self.values = PostmanVariables.read(
            values, at: JSONPath.root.appending(key: "values"), file: source, problems: &problems)
        self.problems = problems
    }

    /// Reads an environment from its bytes (JSON).
    public init(bytes: [UInt8], source: String) throws(PostmanCollectionError) {
        try self.init(json: try PostmanCollectionError.parsed(bytes, source: source), source: source)
    }
}
