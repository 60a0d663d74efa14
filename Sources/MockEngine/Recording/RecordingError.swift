/// Why recording could not start, stop or write where it was asked to.
public enum RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The target is not an absolute http(s) URL.
    case invalidTarget(String, reason: String)
    /// A recording is already running (to this target).
    case alreadyRecording(target: String)
    /// Stopping was asked while nothing was recording.
    case notRecording
    /// The stub folder cannot be written safely: a part of it cannot be created, or
    /// `mappings/` or `__files/` leads outside it (a symbolic link).
    case unsafeStubFolder(path: String, reason: String)
    /// A recording specification (admin API JSON) is not valid.
    case invalidSpecification(path: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .invalidTarget(let target, let reason): "Invalid target '\(target)': \(reason)"
        case .alreadyRecording(let target): "Already recording to '\(target)'; stop it first"
        case .notRecording: "Not recording"
        case .unsafeStubFolder(let path, let reason): "Cannot record into '\(path)': \(reason)"
        case .invalidSpecification(let path, let expected, let found): "\(path): expected \(expected), found \(found)"
        }
    }
}
