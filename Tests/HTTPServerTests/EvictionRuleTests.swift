import HTTPCore
import TestSupport
import Testing

@testable import HTTPServerKit

/// One choice of ``EvictionRule``: the stalest head's and body's last progress (seconds before
/// now, nil for none), whether a client waits, and which is closed with what status.
struct EvictionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var headIdle: UInt64?
    var bodyIdle: UInt64?
    var clientWaiting = true
    var expected: (member: String, status: Int)?
    var testDescription: String { name }
}

let evictionCases: [EvictionCase] = [
    EvictionCase(name: "nothing mid-request", headIdle: nil, bodyIdle: nil, expected: nil),
    EvictionCase(name: "a body that moved lately", headIdle: nil, bodyIdle: 1, expected: ("body", 503)),
    EvictionCase(name: "a stalled body", headIdle: nil, bodyIdle: 2, expected: ("body", 408)),
    EvictionCase(name: "a head that moved lately is kept", headIdle: 1, bodyIdle: nil, expected: nil),
    EvictionCase(name: "a stalled head", headIdle: 5, bodyIdle: nil, expected: ("head", 408)),
    EvictionCase(name: "a stalled head before a moving body", headIdle: 3, bodyIdle: 1, expected: ("head", 408)),
    EvictionCase(name: "the longer stalled of head and body", headIdle: 3, bodyIdle: 4, expected: ("body", 408)),
    EvictionCase(name: "a head and body stalled as long: the head", headIdle: 3, bodyIdle: 3, expected: ("head", 408)),
    EvictionCase(name: "a moving head and body: the body", headIdle: 1, bodyIdle: 1, expected: ("body", 503)),
    EvictionCase(
        name: "nobody waiting: a body that moved lately is kept", headIdle: nil, bodyIdle: 1, clientWaiting: false,
        expected: nil),
    EvictionCase(
        name: "nobody waiting: a stalled body still goes", headIdle: 1, bodyIdle: 2, clientWaiting: false,
        expected: ("body", 408)),
]

/// Which connection in the middle of a request makes room at the limit, as values: the pure
/// rule, and the connection's state machine around it (which bodies count as progressing,
/// which connections may be told, which never go).
@Suite struct EvictionRuleTests {
    static let second: UInt64 = 1_000_000_000
    static let now: UInt64 = 100 * second

    @Test(arguments: evictionCases)
    func choosesTheStalestRequestAndItsStatus(_ test: EvictionCase) {
        let head = test.headIdle.map { EvictionRule.Candidate("head", lastProgress: Self.now - $0 * Self.second) }
        let body = test.bodyIdle.map { EvictionRule.Candidate("body", lastProgress: Self.now - $0 * Self.second) }
        let choice = EvictionRule.choose(
            stalestHead: head, stalestBody: body, now: Self.now, stalledAge: 2 * Self.second,
            clientWaiting: test.clientWaiting)
        #expect(choice?.member == test.expected?.member)
        #expect(choice?.status.code == test.expected?.status)
    }

    static let timeouts = ConnectionStateMachine.Timeouts(
        header: 10 * second, idle: 60 * second, body: 30 * second, linger: 2 * second)

    /// A machine whose request head is in and whose body has begun, at `clock`'s time.
    static func midBody(_ clock: ManualClock) -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(timeouts: timeouts, now: clock.now)
        _ = machine.bytesRead(now: clock.now, drained: true)
        _ = machine.headReceived(expectsContinue: false)
        _ = machine.settle(now: clock.now, input: .body)
        return machine
    }

    @Test func bytesOfABodyAreProgressAndOthersAreNot() {
        let clock = ManualClock()
        var machine = ConnectionStateMachine(timeouts: Self.timeouts, now: clock.now)
        let head = machine.bytesRead(now: clock.now, drained: true)
        #expect(head == .none, "a head's bytes do not move a body")
        var body = Self.midBody(clock)
        clock.advance(by: .seconds(1))
        let progressed = body.bytesRead(now: clock.now, drained: true)
        #expect(progressed == .bodyProgressed)
        #expect(body.lastProgress == clock.now)
        #expect(body.requestReceived() == .handRequest(sequence: 1))
        let answered = body.bytesRead(now: clock.now, drained: true)
        #expect(answered == .none, "the next request's bytes while this one is processed")
    }

    @Test func anEvictedBodyIsToldWhenNothingElseIsGoingOut() {
        let clock = ManualClock()
        var machine = Self.midBody(clock)
        #expect(machine.isMidRequest(outputEmpty: true))
        let evicted = machine.evictionRequested(status: .serviceUnavailable, outputEmpty: true)
        #expect(evicted == .serviceUnavailable)
        #expect(machine.state == .closing && machine.deadline == nil)
        let released = machine.socketClosed()
        #expect(released)
        let again = machine.evictionRequested(status: .serviceUnavailable, outputEmpty: true)
        #expect(again == nil)
        #expect(machine.state == .closed, "closed: evicting it again does nothing")

        var pending = Self.midBody(clock)
        #expect(!pending.isMidRequest(outputEmpty: false))
        let quiet = pending.evictionRequested(status: .requestTimeout, outputEmpty: false)
        #expect(quiet == nil, "an answer of ours would land inside bytes still queued")
        #expect(pending.state == .closing, "closed all the same")
    }

    @Test func aRequestBeingProcessedOrAnsweredIsNeverMidRequest() {
        let clock = ManualClock()
        var machine = Self.midBody(clock)
        _ = machine.requestReceived()
        #expect(!machine.isMidRequest(outputEmpty: true), "processing")
        _ = machine.responseBegins(requestKeepAlive: true, handlerWantsClose: false, input: .idle)
        machine.dribbleBegins()
        #expect(!machine.isMidRequest(outputEmpty: true), "answering")
        _ = machine.responseQueued(input: .idle)
        #expect(machine.answerQueued)
        _ = machine.settle(now: clock.now, input: .body)
        #expect(!machine.isMidRequest(outputEmpty: true), "its answer waits on the loop")
        _ = machine.queuedAnswerTaken()
        machine.writeWouldBlock()
        _ = machine.settle(now: clock.now, input: .body)
        #expect(!machine.isMidRequest(outputEmpty: true), "its answer is still being written")
        _ = machine.writeFinished(now: clock.now)
        _ = machine.settle(now: clock.now, input: .body)
        #expect(machine.isMidRequest(outputEmpty: true), "answered, and the next body is arriving")
    }
}
