import StubFormat

/// What a recording (or snapshot) produced.
public struct RecordingResult: Sendable {
    /// The mappings, in the order first recorded (a scenario's steps together).
    public var mappings: [StubMapping]
    /// The mapping files written (paths), in order.
    public var mappingFiles: [String]
    /// The `__files/` bodies written (paths).
    public var bodyFiles: [String]
    /// Files left alone, and the names used instead.
    public var collisions: [RecordingCollision]
    /// Requests seen again whose answers were not kept.
    public var ignoredRepeats: Int
    /// Upstream failures passed on but not recorded.
    public var unrecordedFailures: Int
    /// Mapping files that still could not be written (their mappings are in ``mappings``).
    public var unwrittenFiles: [String]
    /// The 404s held back and never recorded, because no request was answered otherwise
    /// (``RecordingConfiguration/holdsNotFound``).
    public var heldNotFound: [RecordedExchange]
    /// The 404s not recorded because their path repeats the API's base path.
    public var repeatedPrefix: [String]

    /// Creates a result.
    public init(
        mappings: [StubMapping] = [], mappingFiles: [String] = [], bodyFiles: [String] = [],
        collisions: [RecordingCollision] = [], ignoredRepeats: Int = 0, unrecordedFailures: Int = 0,
        unwrittenFiles: [String] = [], heldNotFound: [RecordedExchange] = [], repeatedPrefix: [String] = []
    ) {
        self.mappings = mappings
        self.mappingFiles = mappingFiles
        self.bodyFiles = bodyFiles
        self.collisions = collisions
        self.ignoredRepeats = ignoredRepeats
        self.unrecordedFailures = unrecordedFailures
        self.unwrittenFiles = unwrittenFiles
        self.heldNotFound = heldNotFound
        self.repeatedPrefix = repeatedPrefix
    }
}
