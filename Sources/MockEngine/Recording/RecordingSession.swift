import Platform
import Synchronization

/// The admin API's recording: its status, and while recording, the target and the recorder.
/// Requests check ``isActive`` (one atomic load) before taking the lock.
final class RecordingSession: Sendable {
    private struct State {
        var status = RecordingStatus.neverStarted
        var target: String?
        var recorder: Recorder?
        var outputIDs = false
    }

    private let state = Locked(State())
    private let active = Atomic<Bool>(false)

    /// Whether a recording may be running (the fast check on the request path).
    var isActive: Bool { active.load(ordering: .acquiring) }

    /// The target and recorder while recording.
    func current() -> (target: String, recorder: Recorder)? {
        state.withLock { state in
            guard let target = state.target, let recorder = state.recorder else { return nil }
            return (target, recorder)
        }
    }

    /// The status, as the admin API reports it.
    var status: RecordingStatus { state.withLock { $0.status } }

    /// Begins recording to `target`; `outputIDs` makes ``stop()`` report ids only.
    func start(target: String, recorder: Recorder, outputIDs: Bool) throws(RecordingError) {
        try state.withLock { (state) throws(RecordingError) in
            if let running = state.target, state.status == .recording { throw .alreadyRecording(target: running) }
            state = State(status: .recording, target: target, recorder: recorder, outputIDs: outputIDs)
        }
        active.store(true, ordering: .releasing)
    }

    /// Ends recording; returns the recorder (to finish) and whether ids only were asked for.
    func stop() throws(RecordingError) -> (recorder: Recorder, outputIDs: Bool) {
        let stopped = try state.withLock { (state) throws(RecordingError) -> (Recorder, Bool) in
            guard state.status == .recording, let recorder = state.recorder else { throw .notRecording }
            state.status = .stopped
            state.target = nil
            state.recorder = nil
            return (recorder, state.outputIDs)
        }
        active.store(false, ordering: .releasing)
        return stopped
    }
}
