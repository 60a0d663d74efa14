/// An operation a fallback source answers, as the dashboard and `/__admin/petmock/operations`
/// list it beside the mappings.
public struct DocumentOperation: Sendable, Hashable {
    /// `GET`.
    public var method: String
    /// The path template, with the mount point: `/v2/items/{id}`.
    public var path: String
    /// How the journal names it, `GET /items/{id}` (the template as documented).
    public var name: String
    /// `operationId`, when it has one.
    public var operationId: String?
    /// `summary`, when it has one.
    public var summary: String?
    /// The documented statuses as written (`200`, `4XX`, `default`).
    public var statuses: [String]
    /// With `--stateful`, what the operation does to which collection: `("create", "/v2/things")`;
    /// nil when it answers as without state.
    public var stateful: Stateful?

    /// What a stateful operation does to which collection.
    public struct Stateful: Sendable, Hashable {
        /// `create`, `list`, `read`, `replace`, `patch` or `delete`.
        public var role: String
        /// The collection's path with the mount point, `/v2/things`.
        public var collection: String

        public init(role: String, collection: String) {
            self.role = role
            self.collection = collection
        }
    }

    /// Creates an operation.
    public init(
        method: String, path: String, name: String, operationId: String? = nil, summary: String? = nil,
        statuses: [String] = [], stateful: Stateful? = nil
    ) {
        self.stateful = stateful
        self.method = method
        self.path = path
        self.name = name
        self.operationId = operationId
        self.summary = summary
        self.statuses = statuses
    }
}
