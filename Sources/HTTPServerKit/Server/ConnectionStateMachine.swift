import HTTPCore
import HTTPHandlerKit

/// What one connection does next, as a value: it takes events (bytes read or none there, the
/// socket reported ready, parsing begun and ended, a request head or a whole request parsed, a
/// parse error, an answer begun and queued, a queued answer taken, a write finished or blocked,
/// the peer's half-close, a deadline reached at the current time, a fault, a shutdown, the
/// socket closed) and returns the one action the connection performs for each. It holds the
/// phase, every flag of the connection and the deadline; it owns no socket, buffer or timer,
/// so it is tested with plain values and a hand-moved clock.
///
/// `Connection` is the shell around it: it reads and writes the socket, runs the parser,
/// serialises replies, and performs the actions.
struct ConnectionStateMachine {
    enum Phase: Equatable {
        /// Reading (or waiting for) a request.
        case reading
        /// The handler has the request and has not answered yet.
        case awaitingResponse
        /// An answer is being sent over time (dribble).
        case responding
        /// No more requests: flush what is queued, then close (lingering when `linger`).
        case finishing(linger: Bool)
        /// Our side is shut for writing; draining the client until it closes or time runs out.
        case closing
        /// Closed; no event does anything any more.
        case closed
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
        /// Stop parsing: too much output waits for a slow reader.
        case pauseReading
        /// The output drained: parse and read again.
        case resumeReading
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
        /// Write the answer's head, ending it with `Connection: close` unless `keepAlive`.
        case writeHead(keepAlive: Bool)
        /// The answer came outside the read path: put the connection among the loop's queued
        /// answers, sent when the loop is about to wait.
        case queueAnswer
        /// The loop took the queued answer: send it and go on reading.
        case sendAnswer
        /// The socket was open: release it (deregister, close, free the slot).
        case releaseSocket
        /// Bytes of the request body arrived: the connection goes to the end of the loop's
        /// order of body progress (the body that moved least recently makes room first).
        case bodyProgressed
        /// Close now to make room for a new client, after a bodiless `answer` with
        /// `Connection: close` when one may be written (nil: close without a word).
        case evict(answer: HTTPStatus?)
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
    var phase = Phase.reading
    /// The socket took only part of the output; waiting for it to become writable.
    var writeBlocked = false
    /// Parsing stopped until the output drains.
    var readingPaused = false
    /// The client shut its side: no more bytes will come.
    var peerClosed = false
    /// Close after the answer being written (the request, the handler or a shutdown said so).
    var closeAfterResponse = false
    /// The number of the request handed to the handler last.
    var sequence: UInt64 = 0
    /// When bytes last arrived, to tell a stalled request from a slow one.
    var lastProgress: UInt64
    /// The armed deadline, if any.
    var deadline: (kind: TimeoutList.Kind, at: UInt64)?
    /// The socket is closed: every event does nothing any more.
    var isClosed = false
    /// Bytes read are being fed to the parser (the read path): an answer given meanwhile goes
    /// out with that path's own write, not through the loop's queue.
    var isProcessing = false
    /// The last read took all the socket held (a short read, or `EAGAIN`) and no readiness was
    /// reported since: there is nothing to read until the loop reports the socket again (a new
    /// edge, or the next level-triggered poll), so an answer that comes later (a deferred
    /// reply) resumes without a read that could only say `EAGAIN`.
    var inputDrained = false
    /// The loop holds this connection among its queued answers.
    var answerQueued = false

    init(timeouts: Timeouts, now: UInt64) {
        self.timeouts = timeouts
        lastProgress = now
    }

    /// Whether bytes read now go to the parser.
    var canParse: Bool { phase == .reading && !readingPaused }

    /// Whether a reply to request number `number` is still wanted.
    func accepts(replyTo number: UInt64) -> Bool {
        phase == .awaitingResponse && number == sequence
    }

    /// Whether the dribbled answer to request `number` is still being sent.
    func isResponding(to number: UInt64) -> Bool {
        phase == .responding && number == sequence
    }

    /// Whether closing now loses nothing: no request begun, none being answered, nothing
    /// queued either way (a keep-alive connection waiting, or one that never sent a byte).
    func isBetweenRequests(input: Input, outputEmpty: Bool) -> Bool {
        phase == .reading && !writeBlocked && input == .idle && outputEmpty
    }

    /// Whether the connection is in the middle of receiving a request (its head or its body)
    /// with nothing being processed or answered: nothing is queued to go out, the socket takes
    /// writes, and no earlier answer waits on the loop. Such a connection may make room at the
    /// limit (``EvictionRule``), and may be told so first.
    func isMidRequest(outputEmpty: Bool) -> Bool {
        guard phase == .reading, !writeBlocked, outputEmpty, !answerQueued else { return false }
        return deadline?.kind == .header || deadline?.kind == .body
    }

    /// Whether the connection is in the middle of receiving a request and has sent nothing
    /// for at least `age` nanoseconds: a stalled reader that may make room at the limit.
    func isStalledMidRequest(now: UInt64, age: UInt64, outputEmpty: Bool) -> Bool {
        isMidRequest(outputEmpty: outputEmpty) && now &- lastProgress >= age
    }
}
