/// Something the recorder did or declined to do, for logs and tests.
public enum RecordingEvent: Sendable, Hashable, CustomStringConvertible {
    /// A mapping was recorded (step 1, or a later step of a scenario), and written to `file`
    /// (nil when recording in memory).
    case recorded(request: String, status: Int?, step: Int, file: String?)
    /// A request seen before; its first answer is kept (repeats make scenarios only when asked).
    case repeatIgnored(request: String)
    /// An upstream failure passed to the caller and not recorded (recording failures is off).
    case failureNotRecorded(request: String, reason: String)
    /// A file was left alone and another name used.
    case collision(RecordingCollision)
    /// A file could not be written; the mapping stays in memory and is written again when
    /// recording stops.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .recorded(let request, let status, let step, let file):
            "recorded \(request) (\(status.map(String.init) ?? "fault"))"
                + (step > 1 ? ", scenario step \(step)" : "") + " -> " + (file ?? "memory")
        case .repeatIgnored(let request): "\(request) seen again; its first answer is kept"
        case .failureNotRecorded(let request, let reason): "not recorded: \(request): \(reason)"
        case .collision(let collision): collision.description
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason); kept in memory, retried at stop"
        }
    }
}

/// A file the recorder would have written but left alone, and where it wrote instead.
public struct RecordingCollision: Sendable, Hashable, CustomStringConvertible {
    /// The path it wanted.
    public var wanted: String
    /// What is there: `a hand-written mapping`, `a symbolic link`, ...
    public var occupant: String
    /// The path it wrote instead.
    public var writtenTo: String

    /// Creates a collision report.
    public init(wanted: String, occupant: String, writtenTo: String) {
        self.wanted = wanted
        self.occupant = occupant
        self.writtenTo = writtenTo
    }

    public var description: String { "kept \(wanted) (\(occupant)); wrote \(writtenTo) instead" }
}

/// Whether the admin API's recorder has run (WireMock's recording status).
public enum RecordingStatus: String, Sendable, Hashable {
    /// Never started on this server.
    case neverStarted = "NeverStarted"
    /// Recording now.
    case recording = "Recording"
    /// Started and stopped.
    case stopped = "Stopped"
}

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

    /// Creates a result.
    public init(
        mappings: [StubMapping] = [], mappingFiles: [String] = [], bodyFiles: [String] = [],
        collisions: [RecordingCollision] = [], ignoredRepeats: Int = 0, unrecordedFailures: Int = 0,
        unwrittenFiles: [String] = []
    ) {
        self.mappings = mappings
        self.mappingFiles = mappingFiles
        self.bodyFiles = bodyFiles
        self.collisions = collisions
        self.ignoredRepeats = ignoredRepeats
        self.unrecordedFailures = unrecordedFailures
        self.unwrittenFiles = unwrittenFiles
    }
}
