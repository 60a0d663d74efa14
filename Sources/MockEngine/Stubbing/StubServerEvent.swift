import HTTPCore
import StubFormat

/// Something the stub server did on its own, for logs and for tests to wait on: hot reloads,
/// requests proxied to the live API, and what recording made of them.
public enum StubServerEvent: Sendable, CustomStringConvertible {
    /// A mapping file was read again and now serves this many mappings (warnings listed).
    case reloaded(file: String, mappings: Int, problems: [StubProblem])
    /// A mapping file changed into something with errors; with `keptPrevious`, its last good
    /// version keeps serving.
    case reloadFailed(file: String, problems: [StubProblem], keptPrevious: Bool)
    /// A mapping file that serves nothing (it never loaded, or is new) changed into something
    /// with errors: still nothing from it serves.
    case neverServed(file: String, problems: [StubProblem])
    /// A mapping file was deleted, and its mappings with it.
    case removed(file: String, mappings: Int)
    /// Watching the stub folder failed; reloading has stopped.
    case watchFailed(reason: String)
    /// A request was forwarded to the live API (`GET /api/pets`, its URL there, and
    /// `200 OK in 12 ms` or the failure).
    case proxied(request: String, upstream: String, result: String)
    /// The recorder recorded a mapping, kept a file, or could not write one.
    case recording(RecordingEvent)
    /// A stub's webhook call failed or was not sent (what, where, why), and how many others
    /// failed or were not sent since the last such event was told (at most one a second).
    case webhook(WebhookCall, untold: Int)
    /// A stub's `recordState` or `deleteState` changed nothing (a limit of the store, a
    /// template that failed); told once per store until it is reset.
    case stateRefused(String)

    /// The file the event is about, if any.
    public var file: String? {
        switch self {
        case .reloaded(let file, _, _), .reloadFailed(let file, _, _), .neverServed(let file, _), .removed(let file, _):
            file
        case .watchFailed, .proxied, .webhook, .stateRefused: nil
        case .recording(let event):
            if case .recorded(_, _, _, let file) = event { file } else { nil }
        }
    }

    public var description: String {
        switch self {
        case .reloaded(let file, let count, let problems):
            "reloaded \(TerminalText.escape(file)): \(count) mapping\(count == 1 ? "" : "s")"
                + problems.map { "\n  \($0)" }.joined()
        case .reloadFailed(let file, let problems, let kept):
            "reload of \(TerminalText.escape(file)) failed"
                + (kept ? "; its last good version keeps serving" : "; serving what loaded from it")
                + problems.map { "\n  \($0)" }.joined()
        case .neverServed(let file, let problems):
            "reload of \(TerminalText.escape(file)) failed; it was never served and serves nothing"
                + problems.map { "\n  \($0)" }.joined()
        case .removed(let file, let count):
            "removed \(TerminalText.escape(file)): \(count) mapping\(count == 1 ? "" : "s") gone"
        case .watchFailed(let reason): "watching the stubs stopped: \(reason)"
        case .proxied(let request, let upstream, let result): "proxied \(request) to \(upstream): \(result)"
        case .recording(let event): event.description
        case .webhook(let call, let untold):
            call.description + (untold > 0 ? " (and \(untold) more failed or unsent since the last line)" : "")
        case .stateRefused(let message):
            "\(TerminalText.escape(message)) (told once; GET /__admin/petmock/problems lists every one)"
        }
    }
}
