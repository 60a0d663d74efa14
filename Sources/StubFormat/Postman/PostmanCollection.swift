import JSONKit

/// A Postman collection (format v2.0 or v2.1), read from its JSON, whose saved examples become
/// stubs (``stubs(environment:)``).
///
/// ```swift
/// let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "pets.postman_collection.json")))
/// let set = try PostmanCollection(bytes: bytes, source: "pets.postman_collection.json").stubs()
/// let session = try StubSession(mappings: set.mappings)   // set.problems: what was left out, and why
/// ```
public struct PostmanCollection: Sendable, Hashable {
    /// The format versions read.
    public enum Version: String, Sendable, Hashable {
        /// `https://schema.getpostman.com/json/collection/v2.0.0/collection.json`.
        case v20 = "2.0"
        /// `https://schema.getpostman.com/json/collection/v2.1.0/collection.json`.
        case v21 = "2.1"
    }

    /// The collection's name (`info.name`).
    public let name: String
    /// The format version (`info.schema`).
    public let version: Version
    /// Where the collection came from, as problems name it.
    public let source: String
    /// The collection's JSON.
    public let json: JSONValue
    /// Whether `info.schema` was missing, so the collection is read as v2.1.
    public let schemaAssumed: Bool

    /// Reads a collection from its JSON; refused when it is not a v2.0 or v2.1 collection.
    public init(json: JSONValue, source: String) throws(PostmanCollectionError) {
        guard let object = json.objectValue else {
            throw .notACollection(
                source: source, path: "$", reason: "expected an object, found \(MappingDecoder.describe(json))")
        }
        guard let info = object["info"] else {
            if object["requests"] != nil || object["order"] != nil { throw .version1(source: source) }
            throw .notACollection(source: source, path: "$", reason: "missing field 'info'")
        }
        // A collection written by hand may name no schema (Prism reads those): with an `item`
        // array it is read as v2.1, and ``stubs(environment:)`` says so.
        let schemaValue: JSONValue? =
            info["schema"] ?? (object["item"]?.arrayValue != nil ? .string(Self.assumedSchema) : nil)
        guard let schema = schemaValue?.stringValue else {
            throw .notACollection(
                source: source, path: "$.info.schema",
                reason: "expected the URL of Postman's collection schema, found "
                    + (info["schema"].map(MappingDecoder.describe) ?? "nothing"))
        }
        if schema.contains("/collection/v2.1") {
            version = .v21
        } else if schema.contains("/collection/v2.0") {
            version = .v20
        } else if schema.contains("/collection/v1") {
            throw .version1(source: source)
        } else {
            throw .notACollection(
                source: source, path: "$.info.schema",
                reason: "expected a v2.0 or v2.1 collection schema URL, found string '\(schema)'")
        }
        guard object["item"]?.arrayValue != nil else {
            throw .notACollection(
                source: source, path: "$.item",
                reason: "expected an array of items, found "
                    + (object["item"].map(MappingDecoder.describe) ?? "nothing"))
        }
        name = info["name"]?.stringValue ?? ""
        schemaAssumed = info["schema"] == nil
        self.source = source
        self.json = json
    }

    /// The schema URL a collection that names none is read as.
    static let assumedSchema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    /// Reads a collection from its bytes (JSON).
    public init(bytes: [UInt8], source: String) throws(PostmanCollectionError) {
        try self.init(json: try PostmanCollectionError.parsed(bytes, source: source), source: source)
    }

    /// Whether the bytes look like a Postman collection (an `info.schema` naming Postman's
    /// collection schema), for a tool told to read something else.
    public static func isCollection(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONValue(parsing: bytes),
            let schema = value["info"]?["schema"]?.stringValue
        else { return false }
        return schema.contains("schema.getpostman.com") || schema.contains("/collection/v")
    }

    /// The collection's variables (`variable`), with the environment's values over them.
    public func variables(environment: PostmanEnvironment? = nil, problems: inout [StubProblem]) -> PostmanVariables {
        var variables = PostmanVariables(
            PostmanVariables.read(
                json["variable"]?.arrayValue ?? [], at: JSONPath.root.appending(key: "variable"), file: source,
                problems: &problems))
        if let environment { variables.merge(environment.values) }
        return variables
    }

    /// The stubs of every saved example, and the problems: requests without an example, and
    /// those (or examples) that could not be read, each named by its folder path and name;
    /// variables left unresolved, each named with where it is; scripts (`event`), which are
    /// never run, each named by the collection, folder or request that holds them.
    ///
    /// Auth helpers (`auth` of the collection, a folder or a request: `apikey`, `basic`,
    /// `bearer`, `oauth2`, `noauth`, `inherit`) are read; with `requiringAuth`, each example's
    /// stub requires the credential its request's helper adds (the `Authorization` header, or
    /// the API key's header field or query parameter), and one more stub per request answers
    /// a 401 to a request without it. Without it, the stubs answer without credentials, as
    /// Postman's mock servers do, and each helper is a warning saying so.
    public func stubs(environment: PostmanEnvironment? = nil, requiringAuth: Bool = false) -> PostmanStubSet {
        var builder = PostmanStubBuilder(source: source)
        if schemaAssumed {
            builder.problems.append(
                StubProblem(
                    .warning, .invalidValue, file: source, path: "$.info.schema",
                    expected: "the URL of Postman's collection schema", found: "nothing; read as a v2.1 collection"))
        }
        builder.requiresAuth = requiringAuth
        let variables = variables(environment: environment, problems: &builder.problems)
        builder.variables = variables
        builder.noteScripts(json["event"], at: JSONPath.root.appending(key: "event"), owner: "the collection")
        let auth = builder.auth(json["auth"], at: JSONPath.root.appending(key: "auth"), parent: nil)
        builder.walk(json["item"]?.arrayValue ?? [], at: JSONPath.root.appending(key: "item"), folders: [], auth: auth)
        return builder.finish()
    }
}
