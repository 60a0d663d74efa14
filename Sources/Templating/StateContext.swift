import JSONKit

/// One context of the state extension (`wiremock-state-extension`): its properties, its list
/// of entries and how many times it was updated. A value: a reader gets a copy that later
/// writes do not change.
public struct StateContext: Sendable, Hashable {
    /// The properties, in the order first written; every value is text.
    public var properties: JSONObject
    /// The list's entries, each an object of text values, first to last.
    public var list: [JSONObject]
    /// How many writes changed the context (`recordState`'s `state` and `list` count one each).
    public var updateCount: Int

    /// Creates a context.
    public init(properties: JSONObject = [:], list: [JSONObject] = [], updateCount: Int = 0) {
        self.properties = properties
        self.list = list
        self.updateCount = updateCount
    }

    /// The context as the admin API shows it: `properties`, `list`, `updateCount`, `listSize`.
    public func json(named name: String) -> JSONValue {
        [
            "context": .string(name), "properties": .object(properties), "list": .array(list.map(JSONValue.object)),
            "updateCount": .int(Int64(updateCount)), "listSize": .int(Int64(list.count)),
        ]
    }
}

/// Where the `state` helper reads contexts: petmock's store, one per server or session, given
/// to each render that may read it.
public protocol TemplateStateSource: Sendable {
    /// The context called `name`, or nil when none exists.
    func stateContext(named name: String) -> StateContext?
}
