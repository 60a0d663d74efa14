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
    /// A 404 held back, unrecorded, until the API answers some request otherwise
    /// (``RecordingConfiguration/holdsNotFound``).
    case notFoundHeld(request: String)
    /// A 404 to a path that repeats the API's base path (`/api/api/pets`), not recorded: the
    /// client's base URL holds the prefix twice, or the target does.
    case prefixRepeated(request: String, basePath: String)

    public var description: String {
        switch self {
        case .recorded(let request, let status, let step, let file):
            "recorded \(request) (\(status.map(String.init) ?? "fault"))"
                + (step > 1 ? ", scenario step \(step)" : "") + " -> " + (file ?? "memory")
        case .repeatIgnored(let request): "\(request) seen again; its first answer is kept"
        case .failureNotRecorded(let request, let reason): "not recorded: \(request): \(reason)"
        case .collision(let collision): collision.description
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason); kept in memory, retried at stop"
        case .notFoundHeld(let request):
            "\(request) answered 404; held back, not written, until the API answers a request otherwise "
                + "(a wrong base URL answers nothing but 404)"
        case .prefixRepeated(let request, let basePath):
            "not recorded: \(request) answered 404, and its path repeats the API's base path '\(basePath)': "
                + "the client's base URL should hold '\(basePath)' once (the proxy keeps each path as it comes)"
        }
    }
}
