/// Whether the admin API's recorder has run (WireMock's recording status).
public enum RecordingStatus: String, Sendable, Hashable {
    /// Never started on this server.
    case neverStarted = "NeverStarted"
    /// Recording now.
    case recording = "Recording"
    /// Started and stopped.
    case stopped = "Stopped"
}
