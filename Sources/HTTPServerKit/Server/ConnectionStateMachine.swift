import HTTPCore
import HTTPHandlerKit

/// What one connection does next, as a value: it takes events (bytes read or none there, the
/// socket reported ready, parsing begun and ended, a request head or a whole request parsed, a
/// parse error, an answer begun and queued, a queued answer taken, a write finished or blocked,
/// the peer's half-close, a deadline reached at the current time, a fault, a shutdown, the
/// socket closed) and returns the one action the connection performs for each. Its ``State``
/// is an enum whose cases carry what holds in them only, beside the ``Traffic`` of reads and
/// writes that holds in every phase, the deadline, the request number and the time of the
/// last bytes. It owns no socket, buffer or timer, so it is tested with plain values and a
/// hand-moved clock.
///
/// `Connection` is the shell around it: it reads and writes the socket, runs the parser,
/// serialises replies, and performs the actions.
struct ConnectionStateMachine {
    /// Where the connection is, with what holds there only.
    enum State: Equatable {
        /// Reading (or waiting for) a request. `paused`: parsing stopped until the output
        /// drains, as too much of it waits for a slow reader. `closeAfterResponse`: the answer
        /// to the request being read ends the connection (a shutdown began).
        case reading(paused: Bool, closeAfterResponse: Bool)
        /// The handler has the request numbered ``sequence`` and has not answered yet;
        /// `closeAfterResponse` when the request, the handler or a shutdown said so.
        case awaitingResponse(closeAfterResponse: Bool)
        /// The answer to request ``sequence`` is being sent over time (a dribble).
        case responding(closeAfterResponse: Bool)
        /// No more requests: flush what is queued, then close; with `linger`, shut our side
        /// and drain the client first, as it may still be sending (RFC 9112 §9.6).
        case finishing(linger: Bool)
        /// Our side is shut for writing; draining the client until it closes or the `linger`
        /// deadline comes.
        case lingering
        /// The machine said close: the shell is closing the socket, and no event but
        /// `socketClosed` does anything.
        case closing
        /// The socket is closed and released: no event does anything any more.
        case closed
    }

    /// What holds of the connection's reads and writes, whichever phase it is in: each field
    /// changes independently of the phase, and the phase changes under each of them. They
    /// mean something until the connection lingers or closes. Kept beside the state, not in
    /// each of the four payloads they would share: there they would be taken out of the enum
    /// and put back at every read, parse and write (half as many instructions again per
    /// request, measured on the shell's sequence of events).
    struct Traffic: Equatable {
        /// What the socket's read side may hold. The socket is read in every phase (input waits
        /// in the shell's buffer while an answer is awaited or sent), and the client may shut
        /// its side in any of them.
        var readSide = ReadSide.open
        /// The socket took only part of the output; waiting for it to become writable. Any
        /// phase may have an answer still going out: the next pipelined request is read and
        /// handed over under it, and finishing waits for it.
        var writeBlocked = false
        /// The loop holds this connection among its queued answers, to send when it is about to
        /// wait. Set as an answer that came outside the read path is queued (the phase moves
        /// on to reading or finishing at that moment), cleared when the loop takes it: in
        /// between, the next pipelined request may be read, handed over and answered.
        var answerQueued = false
        /// Bytes read are being fed to the parser (the read path): an answer given meanwhile
        /// goes out with that path's own write, not through the loop's queue. What the parser
        /// finds moves the phase while this holds (a request handed over and answered at once,
        /// a refusal, a fault).
        var isProcessing = false
    }

    /// What the socket's read side may hold.
    enum ReadSide: Equatable {
        /// Bytes may be waiting: read until a read says otherwise.
        case open
        /// The last read took all the socket held (a short read, or `EAGAIN`) and no readiness
        /// was reported since: there is nothing to read until the loop reports the socket again
        /// (a new edge, or the next level-triggered poll), so an answer that comes later (a
        /// deferred reply) resumes without a read that could only say `EAGAIN`.
        case drained
        /// The client shut its side (a read returned end of file): no more bytes will come.
        case shut
    }

    /// A deadline the connection is under.
    struct Deadline: Equatable {
        var kind: TimeoutList.Kind
        var at: UInt64
    }

    /// What the connection holds of the next request, as its parser and input buffer say.
    enum Input: Equatable {
        /// Nothing: between requests.
        case idle
        /// Unparsed bytes wait (a pipelined request not looked at yet).
        case buffered
        /// A request head has partly arrived.
        case head
        /// A request body is arriving.
        case body
    }

    /// What the connection does after an event.
    enum Action: Equatable {
        /// Nothing more.
        case none
        /// Queue `100 Continue` (the client waits for it before sending the body).
        case writeContinue
        /// Hand the request just parsed to the handler, as request number `sequence`; its
        /// deadline is cancelled (the handler's time is not the client's).
        case handRequest(sequence: UInt64)
        /// Queue a refusal with `status` and a one-line body, then finish (lingering).
        case refuse(HTTPStatus, message: String)
        /// Shut our side for writing and drain the client until it closes or `lingerUntil`.
        case shutdownWrite(lingerUntil: UInt64)
        /// Close the socket now; with `reset`, so that the peer gets an RST.
        case close(reset: Bool)
        /// The answer came outside the read path: put the connection among the loop's queued
        /// answers, sent when the loop is about to wait.
        case queueAnswer
        /// The loop took the queued answer: send it and go on reading.
        case sendAnswer
        /// Bytes of the request body arrived: the connection goes to the end of the loop's
        /// order of body progress (the body that moved least recently makes room first).
        case bodyProgressed
    }

    /// What happens to the connection's one deadline.
    enum DeadlineAction: Equatable {
        case keep
        case arm(TimeoutList.Kind, at: UInt64)
        case cancel
    }

    /// The durations of the deadlines, in nanoseconds.
    struct Timeouts: Equatable {
        var header: UInt64
        var idle: UInt64
        var body: UInt64
        var linger: UInt64

        init(header: UInt64, idle: UInt64, body: UInt64, linger: UInt64) {
            self.header = header
            self.idle = idle
            self.body = body
            self.linger = linger
        }

        /// The configured timeouts; lingering lasts the idle timeout, at most 2 s.
        init(_ configuration: HTTPServerConfiguration) {
            self.init(
                header: configuration.headerTimeout.nanoseconds, idle: configuration.idleTimeout.nanoseconds,
                body: configuration.bodyTimeout.nanoseconds,
                linger: min(configuration.idleTimeout, .seconds(2)).nanoseconds)
        }

        func duration(of kind: TimeoutList.Kind) -> UInt64 {
            switch kind {
            case .header: header
            case .idle: idle
            case .body: body
            case .linger: linger
            }
        }
    }

    /// Stop parsing further pipelined requests while this much output is queued.
    static let outputHighWater = 256 * 1024

    // The state below is changed only by the events (ConnectionStateMachine+Events.swift);
    // the shell reads it.
    let timeouts: Timeouts
    var state = State.reading(paused: false, closeAfterResponse: false)
    /// What holds of the connection's reads and writes in every phase.
    var traffic = Traffic()
    /// The armed deadline, if any (the loop's `TimeoutList` holds the connection under it):
    /// which kind, or none, the state decides at each `settle`; the deadline itself is kept
    /// across the events in between (a trickling head does not extend its own). None once
    /// the connection is closing.
    var deadline: Deadline?
    /// The number of requests handed to the handler, which is the last one's number.
    var sequence: UInt64 = 0
    /// When bytes last arrived, to tell a stalled request from a slow one.
    var lastProgress: UInt64

    init(timeouts: Timeouts, now: UInt64) {
        self.timeouts = timeouts
        lastProgress = now
    }
}

extension ConnectionStateMachine {
    /// The socket took only part of the output; waiting for it to become writable.
    var writeBlocked: Bool { traffic.writeBlocked }

    /// The client shut its side: no more bytes will come.
    var peerClosed: Bool { traffic.readSide == .shut }

    /// There is nothing to read until the loop reports the socket again.
    var inputDrained: Bool { traffic.readSide == .drained }

    /// Bytes read are being fed to the parser, from the read path.
    var isProcessing: Bool { traffic.isProcessing }

    /// The loop holds this connection among its queued answers.
    var answerQueued: Bool { traffic.answerQueued }

    /// The socket is closed and released: every event does nothing any more.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether bytes read now go to the parser.
    var canParse: Bool {
        if case .reading(let paused, _) = state { return !paused }
        return false
    }

    /// Whether a reply to request number `number` is still wanted.
    func accepts(replyTo number: UInt64) -> Bool {
        if case .awaitingResponse = state { return number == sequence }
        return false
    }

    /// Whether the dribbled answer to request `number` is still being sent.
    func isResponding(to number: UInt64) -> Bool {
        if case .responding = state { return number == sequence }
        return false
    }

    /// Whether closing now loses nothing: no request begun, none being answered, nothing
    /// queued either way (a keep-alive connection waiting, or one that never sent a byte).
    func isBetweenRequests(input: Input, outputEmpty: Bool) -> Bool {
        guard case .reading = state else { return false }
        return !traffic.writeBlocked && input == .idle && outputEmpty
    }

    /// Whether the connection is in the middle of receiving a request (its head or its body)
    /// with nothing being processed or answered: nothing is queued to go out, the socket takes
    /// writes, and no earlier answer waits on the loop. Such a connection may make room at the
    /// limit (``EvictionRule``), and may be told so first.
    func isMidRequest(outputEmpty: Bool) -> Bool {
        guard case .reading = state, outputEmpty, !traffic.writeBlocked, !traffic.answerQueued else { return false }
        return deadline?.kind == .header || deadline?.kind == .body
    }

    /// Whether the connection is in the middle of receiving a request and has sent nothing
    /// for at least `age` nanoseconds: a stalled reader that may make room at the limit.
    func isStalledMidRequest(now: UInt64, age: UInt64, outputEmpty: Bool) -> Bool {
        isMidRequest(outputEmpty: outputEmpty) && now &- lastProgress >= age
    }
}
