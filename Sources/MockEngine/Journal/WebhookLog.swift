import HTTPCore
import Platform

/// One webhook call's outcome, as `GET /__admin/petmock/webhooks`, the dashboard and
/// ``Admin/webhookCalls()`` show it; an OpenAPI callback's call is one too (``callback``).
public struct WebhookCall: Sendable, Hashable {
    /// The document's callback a call was made for: its name and the operation it follows.
    public struct Callback: Sendable, Hashable {
        /// `onEvent`.
        public var name: String
        /// `POST /subscribe`.
        public var operation: String

        /// Creates a callback's label.
        public init(name: String, operation: String) {
            self.name = name
            self.operation = operation
        }
    }

    /// What became of the call.
    public enum Result: Sendable, Hashable {
        /// The receiver answered with this status.
        case answered(status: Int)
        /// The call was made and failed: no connection, a timeout, a broken answer.
        case failed(String)
        /// The call was not made: too many under way, or a template or URL that failed.
        case refused(String)
    }

    /// Its place in the log, from 1.
    public var sequence: Int
    /// When the call was decided (milliseconds since the epoch).
    public var date: Int64
    /// The method sent (or, refused before rendering, as written).
    public var method: String
    /// The URL called (or, refused before rendering, as written).
    public var url: String
    /// The request that triggered it, `POST /orders`.
    public var request: String
    /// The stub whose webhook it is: its id, and its name when it has one (empty and nil for
    /// a callback).
    public var stubID: String
    public var stubName: String?
    /// The document's callback it was made for; nil for a stub's webhook.
    public var callback: Callback? = nil
    public var result: Result
    /// How long the call took from sending to its end (zero when it was refused); the delay
    /// before it is not counted.
    public var duration: Duration

    /// The status received, when the receiver answered.
    public var status: Int? {
        if case .answered(let status) = result { return status }
        return nil
    }

    /// Why the call failed or was refused, when it did.
    public var error: String? {
        switch result {
        case .answered: nil
        case .failed(let reason), .refused(let reason): reason
        }
    }

    /// `answered`, `failed` or `refused`.
    public var outcome: String {
        switch result {
        case .answered: "answered"
        case .failed: "failed"
        case .refused: "refused"
        }
    }

    /// One line for a terminal log, every outside string escaped.
    public var description: String {
        let call = "\(TerminalText.escape(method)) \(TerminalText.escape(url))"
        let owner =
            callback.map { "callback \(TerminalText.escape($0.name)) \(call) of \(TerminalText.escape($0.operation))" }
            ?? "webhook \(call) of stub \(TerminalText.escape(stubName ?? stubID))"
        let what = owner + " (after \(TerminalText.escape(request)))"
        let milliseconds = RecordedMappingBuilder.milliseconds(duration)
        switch result {
        case .answered(let status): return "\(what): \(status) in \(milliseconds) ms"
        case .failed(let reason): return "\(what) failed after \(milliseconds) ms: \(TerminalText.escape(reason))"
        case .refused(let reason): return "\(what) not sent: \(TerminalText.escape(reason))"
        }
    }
}

/// How many webhook calls had each outcome.
public struct WebhookTotals: Sendable, Hashable {
    public var answered = 0
    public var failed = 0
    public var refused = 0
}

/// The webhook calls' outcomes, newest last, bounded: past ``capacity`` the oldest go, and
/// are counted. Emptied with the journal.
package final class WebhookLog: Sendable {
    private struct State {
        var entries: [WebhookCall] = []
        /// Where the oldest entry is, once the log is full (a ring).
        var start = 0
        var sequence = 0
        var dropped = 0
        var totals = WebhookTotals()
    }

    /// How many outcomes it keeps.
    package let capacity: Int
    private let state = Locked(State())

    package init(capacity: Int = 300) {
        self.capacity = max(1, capacity)
    }

    /// Records a call's outcome, numbering it.
    func record(_ call: WebhookCall) {
        state.withLock { state in
            state.sequence += 1
            var call = call
            call.sequence = state.sequence
            switch call.result {
            case .answered: state.totals.answered += 1
            case .failed: state.totals.failed += 1
            case .refused: state.totals.refused += 1
            }
            if state.entries.count < capacity {
                state.entries.append(call)
            } else {
                state.entries[state.start] = call
                state.start = (state.start + 1) % capacity
                state.dropped += 1
            }
        }
    }

    /// The outcomes kept, oldest first, and how many older ones were let go.
    package var snapshot: (calls: [WebhookCall], dropped: Int) {
        state.withLock { state in
            (Array(state.entries[state.start...] + state.entries[..<state.start]), state.dropped)
        }
    }

    /// How many calls had each outcome since the log was last emptied, kept or not.
    package var totals: WebhookTotals { state.withLock { $0.totals } }

    /// Forgets every outcome.
    package func clear() {
        state.withLock { $0 = State() }
    }
}
