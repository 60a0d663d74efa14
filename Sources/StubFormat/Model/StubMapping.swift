import JSONKit

/// One stub: which requests it answers and how, in WireMock's mapping model.
///
/// Read them from `mappings/*.json` with ``StubFolder`` (StubServerKit's `StubLoader` reads
/// and compiles them for serving), parse one with ``init(json:)``, or build them in Swift:
///
/// ```swift
/// let pets = StubMapping(
///     name: "pets: list",
///     request: RequestPattern(method: .get, url: .urlPath("/api/pets")),
///     response: ResponseDefinition(status: 200, headers: ["Content-Type": "application/json"],
///                                  body: .json([["firstName": "Rex", "vetId": 1]])))
/// ```
public struct StubMapping: Sendable, Hashable {
    /// The priority of a mapping that sets none (1 is the highest).
    public static let defaultPriority = 5

    /// The mapping's id, a UUID in text form.
    public var id: String
    /// A human name, sent back as `Matched-Stub-Name`.
    public var name: String?
    /// Which requests the mapping answers.
    public var request: RequestPattern
    /// The answer.
    public var response: ResponseDefinition
    /// 1 is the highest; nil means ``defaultPriority``. Equal priorities go to the newest.
    public var priority: Int?
    /// The scenario (state machine) this mapping takes part in.
    public var scenarioName: String?
    /// The scenario state in which the mapping answers; nil answers in any state.
    public var requiredScenarioState: String?
    /// The state the scenario moves to once this mapping answered.
    public var newScenarioState: String?
    /// Free-form data; `metadata.variant` makes the mapping a named variant.
    public var metadata: JSONObject?
    /// Whether WireMock would save the mapping to its files (kept for round trips).
    public var persistent: Bool?
    /// The calls made after the mapping answered (`serveEventListeners` named `webhook`).
    public var webhooks: [WebhookDefinition]
    /// The state extension's listeners (`serveEventListeners` named `recordState` or
    /// `deleteState`), run in order once the mapping answered.
    public var stateListeners: [StateListenerDefinition]

    /// Creates a mapping; a missing id gets a random UUID.
    public init(
        id: String? = nil, name: String? = nil, request: RequestPattern, response: ResponseDefinition,
        priority: Int? = nil, scenarioName: String? = nil, requiredScenarioState: String? = nil,
        newScenarioState: String? = nil, metadata: JSONObject? = nil, persistent: Bool? = nil,
        webhooks: [WebhookDefinition] = [], stateListeners: [StateListenerDefinition] = []
    ) {
        self.id = id ?? Identifiers.randomUUID()
        self.name = name
        self.request = request
        self.response = response
        self.priority = priority
        self.scenarioName = scenarioName
        self.requiredScenarioState = requiredScenarioState
        self.newScenarioState = newScenarioState
        self.metadata = metadata
        self.persistent = persistent
        self.webhooks = webhooks
        self.stateListeners = stateListeners
    }

    /// The priority that applies: ``priority`` or ``defaultPriority``.
    public var effectivePriority: Int { priority ?? Self.defaultPriority }

    /// The variant this mapping belongs to (`metadata.variant`), or nil for a base mapping.
    public var variant: String? {
        get { metadata?["variant"]?.stringValue }
        set {
            var object = metadata ?? JSONObject()
            object["variant"] = newValue.map(JSONValue.string)
            metadata = object.isEmpty ? nil : object
        }
    }

    /// The name a request gives to be answered by this base mapping (`metadata.example`, as a
    /// Postman request's first example is written): `Prefer: example=NAME`, `__example=NAME`
    /// or `X-Petmock-Variant: NAME` picks it over the `Accept` alternatives beside it, as a
    /// file variant's name picks that variant.
    public var exampleName: String? {
        get { variant == nil ? metadata?["example"]?.stringValue : nil }
        set {
            var object = metadata ?? JSONObject()
            object["example"] = newValue.map(JSONValue.string)
            metadata = object.isEmpty ? nil : object
        }
    }

    /// Whether this variant is one of its base's alternatives by content type
    /// (`metadata.byAccept: true`, as a Postman request's later examples are written): a
    /// request with `Accept` and no variant named may get it instead of the base.
    public var isChosenByAccept: Bool {
        get { variant != nil && metadata?["byAccept"]?.boolValue == true }
        set {
            var object = metadata ?? JSONObject()
            object["byAccept"] = newValue ? .bool(true) : nil
            metadata = object.isEmpty ? nil : object
        }
    }

    /// The names of petmock's generated variants that take no argument; no mapping's
    /// `metadata.variant` may use one.
    public static let reservedVariantNames: Set<String> = ["truncated", "empty", "html-error", "reset"]

    /// A one-line description of the variant (`metadata.description`), when given.
    public var variantDescription: String? { metadata?["description"]?.stringValue }
}

extension StubMapping {
    /// The mapping an unmatched request's serve event names (WireMock's `NOT_CONFIGURED`): any
    /// request, a 404, and an id drawn once per process, the same in every such event.
    public static let notConfigured = StubMapping(
        id: Identifiers.randomUUID(), request: RequestPattern(), response: ResponseDefinition(status: 404))
}
