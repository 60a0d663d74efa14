import HTTPCore
import Testing

@testable import HTTPHandlerKit
@testable import HTTPServerKit

/// One event told to the machine, as the shell tells it (times are those of the test's clock).
enum ConnectionEvent: Sendable {
    case bytesRead(drained: Bool)
    case readWouldBlock
    case readinessReported
    case outputQueued(pendingBytes: Int)
    case outputDrained
    case requestReceived
    case parseFailed
    case responseBegins(keepAlive: Bool, input: ConnectionStateMachine.Input)
    case dribbleBegins
    case responseQueued(input: ConnectionStateMachine.Input)
    case queuedAnswerTaken
    case resetFault
    case emptyFault
    case writeWouldBlock
    case writeFinished
    case writeFailed
    case peerHalfClosed(input: ConnectionStateMachine.Input, outputEmpty: Bool)
    case settle(input: ConnectionStateMachine.Input)
    case deadlinePassed
    case shutdownRequested(input: ConnectionStateMachine.Input)
    case evictionRequested
    case socketClosed
}

/// A sequence of events and the state it leads to, payload and all.
struct Transition: Sendable, CustomTestStringConvertible {
    let name: String
    let events: [ConnectionEvent]
    let state: ConnectionStateMachine.State
    var testDescription: String { name }
}

let transitions: [Transition] = [
    Transition(name: "a new connection reads", events: [], state: .reading(paused: false, closeAfterResponse: false)),
    Transition(
        name: "a whole request goes to the handler", events: [.bytesRead(drained: true), .requestReceived],
        state: .awaitingResponse(closeAfterResponse: false)),
    Transition(
        name: "a kept-alive answer goes back to reading",
        events: [.requestReceived, .responseBegins(keepAlive: true, input: .idle), .responseQueued(input: .idle)],
        state: .reading(paused: false, closeAfterResponse: false)),
    Transition(
        name: "Connection: close finishes without lingering when nothing more was sent",
        events: [.requestReceived, .responseBegins(keepAlive: false, input: .idle), .responseQueued(input: .idle)],
        state: .finishing(linger: false)),
    Transition(
        name: "Connection: close with a pipelined request unread finishes lingering",
        events: [
            .requestReceived, .responseBegins(keepAlive: false, input: .buffered), .responseQueued(input: .buffered),
        ],
        state: .finishing(linger: true)),
    Transition(
        name: "a shutdown while a head arrives closes after its answer",
        events: [.settle(input: .head), .shutdownRequested(input: .head)],
        state: .reading(paused: false, closeAfterResponse: true)),
    Transition(
        name: "the request read during a shutdown is answered, then the connection finishes",
        events: [
            .shutdownRequested(input: .head), .requestReceived, .responseBegins(keepAlive: true, input: .idle),
            .responseQueued(input: .idle),
        ],
        state: .finishing(linger: false)),
    Transition(
        name: "a shutdown while the handler works closes after its answer",
        events: [.requestReceived, .shutdownRequested(input: .idle)],
        state: .awaitingResponse(closeAfterResponse: true)),
    Transition(
        name: "a shutdown between requests closes at once",
        events: [.shutdownRequested(input: .idle)], state: .closing),
    Transition(
        name: "output past the high water pauses reading",
        events: [.outputQueued(pendingBytes: ConnectionStateMachine.outputHighWater)],
        state: .reading(paused: true, closeAfterResponse: false)),
    Transition(
        name: "drained output resumes reading",
        events: [.outputQueued(pendingBytes: ConnectionStateMachine.outputHighWater), .outputDrained],
        state: .reading(paused: false, closeAfterResponse: false)),
    Transition(
        name: "a dribble is answering",
        events: [.requestReceived, .responseBegins(keepAlive: true, input: .idle), .dribbleBegins],
        state: .responding(closeAfterResponse: false)),
    Transition(
        name: "a dribble's last piece goes back to reading",
        events: [
            .requestReceived, .responseBegins(keepAlive: true, input: .idle), .dribbleBegins,
            .responseQueued(input: .idle),
        ],
        state: .reading(paused: false, closeAfterResponse: false)),
    Transition(name: "a parse error is refused, lingering", events: [.parseFailed], state: .finishing(linger: true)),
    Transition(
        name: "the refusal written, the connection lingers", events: [.parseFailed, .writeFinished], state: .lingering),
    Transition(
        name: "lingering ends when the client closes",
        events: [.parseFailed, .writeFinished, .peerHalfClosed(input: .idle, outputEmpty: true)], state: .closing),
    Transition(
        name: "lingering ends at its deadline",
        events: [.parseFailed, .writeFinished, .deadlinePassed], state: .closing),
    Transition(
        name: "a slow head is refused at its deadline",
        events: [.bytesRead(drained: true), .settle(input: .head), .deadlinePassed], state: .finishing(linger: true)),
    Transition(
        name: "a quiet keep-alive connection closes at its idle deadline",
        events: [.settle(input: .idle), .deadlinePassed], state: .closing),
    Transition(
        name: "a client that shut its side mid-head is finished without lingering",
        events: [.peerHalfClosed(input: .head, outputEmpty: true)], state: .finishing(linger: false)),
    Transition(
        name: "pipelined requests are still read after the client shut its side",
        events: [.peerHalfClosed(input: .buffered, outputEmpty: true)],
        state: .reading(paused: false, closeAfterResponse: false)),
    Transition(
        name: "the answer to a client that shut its side closes",
        events: [
            .requestReceived, .peerHalfClosed(input: .idle, outputEmpty: true),
            .responseBegins(keepAlive: true, input: .idle), .responseQueued(input: .idle), .writeFinished,
        ],
        state: .closing),
    Transition(name: "a reset fault closes at once", events: [.requestReceived, .resetFault], state: .closing),
    Transition(
        name: "another fault finishes without lingering", events: [.requestReceived, .emptyFault],
        state: .finishing(linger: false)),
    Transition(
        name: "a failed write closes", events: [.requestReceived, .writeWouldBlock, .writeFailed], state: .closing),
    Transition(
        name: "the loop closing the socket releases it", events: [.requestReceived, .socketClosed], state: .closed),
    Transition(
        name: "an evicted connection closes", events: [.settle(input: .body), .evictionRequested], state: .closing),
    Transition(
        name: "the socket released is closed for good",
        events: [
            .socketClosed, .requestReceived, .bytesRead(drained: false), .readinessReported, .settle(input: .head),
        ],
        state: .closed),
]

/// Sequences of events as values: where each leads, with what the state carries there, and
/// what holds of the traffic beside it.
@Suite struct ConnectionStateTransitionTests {
    static let timeouts = ConnectionStateMachine.Timeouts(header: 10, idle: 60, body: 30, linger: 2)

    /// Tells `machine` each event in turn at `now` (a passed deadline at its own time).
    static func apply(_ events: [ConnectionEvent], to machine: inout ConnectionStateMachine, now: UInt64) {
        for event in events {
            switch event {
            case .bytesRead(let drained): _ = machine.bytesRead(now: now, drained: drained)
            case .readWouldBlock: machine.readWouldBlock()
            case .readinessReported: machine.readinessReported()
            case .outputQueued(let pendingBytes): machine.outputQueued(pendingBytes: pendingBytes)
            case .outputDrained: _ = machine.outputDrained()
            case .requestReceived: _ = machine.requestReceived()
            case .parseFailed: _ = machine.parseFailed(.badRequest, message: "bad")
            case .responseBegins(let keepAlive, let input):
                _ = machine.responseBegins(requestKeepAlive: keepAlive, handlerWantsClose: false, input: input)
            case .dribbleBegins: machine.dribbleBegins()
            case .responseQueued(let input): _ = machine.responseQueued(input: input)
            case .queuedAnswerTaken: _ = machine.queuedAnswerTaken()
            case .resetFault: _ = machine.faultRequested(.connectionReset)
            case .emptyFault: _ = machine.faultRequested(.emptyResponse)
            case .writeWouldBlock: machine.writeWouldBlock()
            case .writeFinished: _ = machine.writeFinished(now: now)
            case .writeFailed: _ = machine.writeFailed()
            case .peerHalfClosed(let input, let outputEmpty):
                _ = machine.peerHalfClosed(input: input, outputEmpty: outputEmpty)
            case .settle(let input): _ = machine.settle(now: now, input: input)
            case .deadlinePassed: _ = machine.deadlineReached(now: machine.deadline?.at ?? now)
            case .shutdownRequested(let input): _ = machine.shutdownRequested(input: input, outputEmpty: true)
            case .evictionRequested: _ = machine.evictionRequested(status: .serviceUnavailable, outputEmpty: true)
            case .socketClosed: _ = machine.socketClosed()
            }
        }
    }

    @Test(arguments: transitions)
    func eventsLeadToTheState(_ transition: Transition) {
        var machine = ConnectionStateMachine(timeouts: Self.timeouts, now: 100)
        Self.apply(transition.events, to: &machine, now: 100)
        #expect(machine.state == transition.state)
        switch machine.state {
        case .lingering:
            #expect(machine.deadline?.kind == .linger, "lingering is bounded by its own deadline")
        case .closing, .closed:
            #expect(machine.deadline == nil, "a closing connection is under no deadline")
        case .reading, .awaitingResponse, .responding, .finishing:
            break
        }
    }

    @Test func trafficHoldsAcrossPhases() {
        var machine = ConnectionStateMachine(timeouts: Self.timeouts, now: 100)
        // A write blocks while the next request is read, handed over and answered.
        Self.apply([.writeWouldBlock, .requestReceived], to: &machine, now: 100)
        #expect(machine.state == .awaitingResponse(closeAfterResponse: false) && machine.writeBlocked)
        Self.apply(
            [.responseBegins(keepAlive: true, input: .idle), .responseQueued(input: .idle)], to: &machine, now: 100)
        let queued = ConnectionStateMachine.Traffic(readSide: .open, writeBlocked: true, answerQueued: true)
        #expect(machine.state == .reading(paused: false, closeAfterResponse: false) && machine.traffic == queued)
        // The next request is handed over before the loop takes the queued answer: it stays queued.
        Self.apply([.requestReceived], to: &machine, now: 100)
        #expect(machine.answerQueued)
        Self.apply([.queuedAnswerTaken, .writeFinished], to: &machine, now: 100)
        #expect(machine.traffic == ConnectionStateMachine.Traffic())
        // The client shuts its side while the handler works: the answer closes.
        Self.apply([.peerHalfClosed(input: .idle, outputEmpty: true)], to: &machine, now: 100)
        #expect(machine.state == .awaitingResponse(closeAfterResponse: false) && machine.peerClosed)
        let staysOpen = machine.responseBegins(requestKeepAlive: true, handlerWantsClose: false, input: .idle)
        #expect(!staysOpen && machine.state == .awaitingResponse(closeAfterResponse: true))
    }

    @Test func readSideIsDrainedUntilReportedAndShutForGood() {
        var machine = ConnectionStateMachine(timeouts: Self.timeouts, now: 100)
        Self.apply([.bytesRead(drained: true)], to: &machine, now: 100)
        #expect(machine.traffic.readSide == .drained)
        Self.apply([.readinessReported, .readWouldBlock], to: &machine, now: 100)
        #expect(machine.traffic.readSide == .drained)
        Self.apply([.peerHalfClosed(input: .buffered, outputEmpty: true)], to: &machine, now: 100)
        Self.apply([.readinessReported, .bytesRead(drained: true)], to: &machine, now: 100)
        #expect(machine.traffic.readSide == .shut, "no readiness reopens a side the client shut")
    }
}
