import HTTPCore
import TestSupport
import Testing

@testable import HTTPHandlerKit
@testable import HTTPServerKit

/// The connection's decisions as values: events in, actions out, time from a hand-moved
/// clock. No socket, no timer, no sleep.
@Suite struct ConnectionStateMachineTests {
    static let timeouts = ConnectionStateMachine.Timeouts(
        header: 150_000_000, idle: 300_000_000, body: 300_000_000, linger: 2_000_000_000)

    let clock = ManualClock()

    func newMachine() -> ConnectionStateMachine {
        ConnectionStateMachine(timeouts: Self.timeouts, now: clock.now)
    }

    /// Takes the machine from reading to a queued answer, as the shell does for a request.
    func answer(
        _ machine: inout ConnectionStateMachine, keepAlive: Bool = true, input: ConnectionStateMachine.Input = .idle
    ) -> Bool {
        let staysOpen = machine.responseBegins(requestKeepAlive: keepAlive, handlerWantsClose: false, input: input)
        let queued = machine.responseQueued(input: input)
        #expect(queued == .queueAnswer, "an answer given outside the read path goes to the loop's queue")
        let taken = machine.queuedAnswerTaken()
        #expect(taken == .sendAnswer, "the connection is reading or finishing: the answer goes out")
        return staysOpen
    }

    // MARK: Deadlines

    @Test func silentNewConnectionIsClosedQuietlyAtTheIdleDeadline() {
        var machine = newMachine()
        let start = clock.now
        let deadline = machine.settle(now: start, input: .idle)
        #expect(deadline == .arm(.idle, at: start + Self.timeouts.idle))
        clock.advance(by: .milliseconds(299))
        let action = machine.deadlineReached(now: clock.now)
        #expect(action == .none, "before the deadline nothing happens")
        clock.advance(by: .milliseconds(1))
        let action2 = machine.deadlineReached(now: clock.now)
        #expect(action2 == .close(reset: false))
        #expect(machine.stateCase == .closing)
    }

    @Test func trickledHeadDoesNotExtendTheHeaderDeadline() {
        var machine = newMachine()
        let start = clock.now
        _ = machine.bytesRead(now: start, drained: false)
        let deadline = machine.settle(now: start, input: .head)
        #expect(deadline == .arm(.header, at: start + Self.timeouts.header))
        clock.advance(by: .milliseconds(100))
        _ = machine.bytesRead(now: clock.now, drained: false)
        let deadline2 = machine.settle(now: clock.now, input: .head)
        #expect(deadline2 == .keep, "more head bytes must not move it")
        clock.advance(by: .milliseconds(50))
        let timedOut = machine.deadlineReached(now: clock.now)
        let message = "Request head not received within the header timeout"
        #expect(timedOut == .refuse(.requestTimeout, message: message))
        #expect(machine.stateCase == .finishing(linger: true))
        // The 408 is written; the client may still be sending: shut our side and linger.
        let action = machine.writeFinished(now: clock.now)
        #expect(action == .shutdownWrite(lingerUntil: clock.now + Self.timeouts.linger))
        #expect(machine.stateCase == .lingering)
        let deadline3 = machine.settle(now: clock.now, input: .idle)
        #expect(deadline3 == .keep)
        clock.advance(by: .seconds(2))
        let action2 = machine.deadlineReached(now: clock.now)
        #expect(action2 == .close(reset: false))
    }

    @Test func trickledBodyGets408AtTheBodyDeadlineAndCountsAsProgress() {
        var machine = newMachine()
        let action = machine.headReceived(expectsContinue: false)
        #expect(action == .none)
        let start = clock.now
        let deadline = machine.settle(now: start, input: .body)
        #expect(deadline == .arm(.body, at: start + Self.timeouts.body))
        for _ in 0..<14 {
            clock.advance(by: .milliseconds(20))
            _ = machine.bytesRead(now: clock.now, drained: false)
            let deadline2 = machine.settle(now: clock.now, input: .body)
            #expect(deadline2 == .keep)
            #expect(!machine.isStalledMidRequest(now: clock.now, age: 100_000_000, outputEmpty: true))
            let action2 = machine.deadlineReached(now: clock.now)
            #expect(action2 == .none)
        }
        clock.advance(by: .milliseconds(20))
        let timedOut = machine.deadlineReached(now: clock.now)
        let message = "Request body not received within the body timeout"
        #expect(timedOut == .refuse(.requestTimeout, message: message))
    }

    @Test func stalledBodyIsAnEvictionCandidateOnceOldEnough() {
        var machine = newMachine()
        _ = machine.bytesRead(now: clock.now, drained: false)
        _ = machine.settle(now: clock.now, input: .body)
        clock.advance(by: .milliseconds(99))
        #expect(!machine.isStalledMidRequest(now: clock.now, age: 100_000_000, outputEmpty: true))
        clock.advance(by: .milliseconds(1))
        #expect(machine.isStalledMidRequest(now: clock.now, age: 100_000_000, outputEmpty: true))
        #expect(!machine.isStalledMidRequest(now: clock.now, age: 100_000_000, outputEmpty: false))
    }

    @Test func idleKeepAliveDeadlineRestartsAfterEachAnswerAndClosesQuietly() {
        var machine = newMachine()
        _ = machine.settle(now: clock.now, input: .head)
        let action = machine.requestReceived()
        #expect(action == .handRequest(sequence: 1))
        #expect(machine.deadline == nil, "the handler's time is not the client's")
        let deadline = machine.settle(now: clock.now, input: .idle)
        #expect(deadline == .keep)
        clock.advance(by: .seconds(5))
        #expect(answer(&machine))
        let action2 = machine.writeFinished(now: clock.now)
        #expect(action2 == .none)
        let answered = clock.now
        let deadline2 = machine.settle(now: answered, input: .idle)
        #expect(deadline2 == .arm(.idle, at: answered + Self.timeouts.idle))
        #expect(machine.isBetweenRequests(input: .idle, outputEmpty: true))
        clock.advance(by: .milliseconds(300))
        let action3 = machine.deadlineReached(now: clock.now)
        #expect(action3 == .close(reset: false))
    }

    // MARK: Pipelining and back-pressure

    @Test func pipelinedRequestsAreHandedOverOneAtATimeInOrder() throws {
        var machine = newMachine()
        var parser = HTTPRequestParser()
        let bytes = Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        var offset = 0
        var handed: [(UInt64, String)] = []
        var current = ""
        func pump() throws {
            // As the shell does: parse until the parser wants more bytes or the machine stops it.
            while machine.canParse {
                let step = try bytes[offset...].withUnsafeBytes { try parser.parse($0) }
                offset += step.consumed
                switch step.event {
                case .head(let parsed): current = String(parsed.head.path)
                case .end:
                    if case .handRequest(let number) = machine.requestReceived() { handed.append((number, current)) }
                case .body: break
                case nil: return
                }
            }
        }
        try pump()
        #expect(handed.map(\.1) == ["/a"], "/b waits until /a is answered")
        #expect(machine.stateCase == .awaitingResponse && offset < bytes.count)
        let deadline = machine.settle(now: clock.now, input: .buffered)
        #expect(deadline == .keep)
        #expect(machine.accepts(replyTo: 1) && !machine.accepts(replyTo: 2))
        #expect(answer(&machine, input: .buffered))
        try pump()
        #expect(handed.map(\.0) == [1, 2] && handed.map(\.1) == ["/a", "/b"])
        #expect(!machine.accepts(replyTo: 1), "a late reply to /a is stale now")
    }

    @Test func blockedOutputPausesParsingUntilItDrains() {
        var machine = newMachine()
        machine.outputQueued(pendingBytes: ConnectionStateMachine.outputHighWater - 1)
        #expect(machine.canParse)
        machine.outputQueued(pendingBytes: ConnectionStateMachine.outputHighWater)
        #expect(!machine.canParse, "paused")
        machine.writeWouldBlock()
        // A client not reading its answers is under the idle deadline, not the header one.
        let blocked = clock.now
        let deadline = machine.settle(now: blocked, input: .buffered)
        #expect(deadline == .arm(.idle, at: blocked + Self.timeouts.idle))
        #expect(!machine.isBetweenRequests(input: .idle, outputEmpty: false))
        let action3 = machine.writeFinished(now: clock.now)
        #expect(action3 == .none)
        let resumed = machine.outputDrained()
        #expect(resumed)
        #expect(machine.canParse)
        let resumedAgain = machine.outputDrained()
        #expect(!resumedAgain, "resumed once")
    }

    @Test func clientThatNeverReadsIsClosedAtTheIdleDeadline() {
        var machine = newMachine()
        let action = machine.requestReceived()
        #expect(action == .handRequest(sequence: 1))
        machine.writeWouldBlock()
        let deadline = machine.settle(now: clock.now, input: .idle)
        #expect(deadline == .arm(.idle, at: clock.now + Self.timeouts.idle))
        clock.advance(by: .milliseconds(300))
        let action2 = machine.deadlineReached(now: clock.now)
        #expect(action2 == .close(reset: false))
    }

    // MARK: Closing

    @Test func halfCloseAfterAWholeRequestIsAnsweredThenClosed() {
        var machine = newMachine()
        let action = machine.requestReceived()
        #expect(action == .handRequest(sequence: 1))
        let action2 = machine.peerHalfClosed(input: .idle, outputEmpty: true)
        #expect(action2 == .none, "the answer still goes out")
        #expect(!answer(&machine), "nothing more will come: Connection: close")
        #expect(machine.stateCase == .finishing(linger: false))
        let action3 = machine.writeFinished(now: clock.now)
        #expect(action3 == .close(reset: false))
    }

    @Test func halfCloseDecidesByWhatIsHeld() {
        var idle = newMachine()
        let action = idle.peerHalfClosed(input: .idle, outputEmpty: true)
        #expect(action == .close(reset: false))
        var queued = newMachine()
        let action2 = queued.peerHalfClosed(input: .idle, outputEmpty: false)
        #expect(action2 == .none)
        let action3 = queued.writeFinished(now: clock.now)
        #expect(action3 == .close(reset: false), "what is queued is sent first")
        var pipelined = newMachine()
        let action4 = pipelined.peerHalfClosed(input: .buffered, outputEmpty: true)
        #expect(action4 == .none)
        #expect(pipelined.canParse, "buffered requests are still answered")
        var partial = newMachine()
        let action5 = partial.peerHalfClosed(input: .head, outputEmpty: true)
        #expect(action5 == .none)
        #expect(partial.stateCase == .finishing(linger: false))
    }

    @Test func connectionCloseEndsAfterTheAnswerLingeringOnlyForUnreadInput() {
        var plain = newMachine()
        _ = plain.requestReceived()
        #expect(!answer(&plain, keepAlive: false))
        let action = plain.writeFinished(now: clock.now)
        #expect(action == .close(reset: false))
        var pipelined = newMachine()
        _ = pipelined.requestReceived()
        #expect(!answer(&pipelined, keepAlive: false, input: .buffered))
        let action2 = pipelined.writeFinished(now: clock.now)
        #expect(action2 == .shutdownWrite(lingerUntil: clock.now + Self.timeouts.linger))
        var handler = newMachine()
        _ = handler.requestReceived()
        let staysOpen = handler.responseBegins(requestKeepAlive: true, handlerWantsClose: true, input: .idle)
        #expect(!staysOpen)
    }

    @Test func shutdownClosesIdleConnectionsAndOthersAfterTheirAnswer() {
        var idle = newMachine()
        let action = idle.shutdownRequested(input: .idle, outputEmpty: true)
        #expect(action == .close(reset: false))
        var busy = newMachine()
        _ = busy.requestReceived()
        let action2 = busy.shutdownRequested(input: .idle, outputEmpty: true)
        #expect(action2 == .none)
        #expect(!answer(&busy), "the in-flight answer says Connection: close")
        let action3 = busy.writeFinished(now: clock.now)
        #expect(action3 == .close(reset: false))
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() {
        var machine = newMachine()
        let action = machine.headReceived(expectsContinue: true)
        #expect(action == .writeContinue)
        let action2 = machine.headReceived(expectsContinue: false)
        #expect(action2 == .none)
    }

    // MARK: Faults and refusals

    @Test(arguments: [
        HTTPFault.emptyResponse, .randomDataThenClose(byteCount: 8), .malformedResponseChunk(),
        .truncatedBody(HTTPResponse(text: "whole"), keepingBytes: 2),
    ])
    func faultsSendWhatTheyQueueThenCloseWithoutLingering(fault: HTTPFault) {
        var machine = newMachine()
        _ = machine.requestReceived()
        let action = machine.faultRequested(fault)
        #expect(action == .none)
        #expect(machine.stateCase == .finishing(linger: false))
        let action2 = machine.writeFinished(now: clock.now)
        #expect(action2 == .close(reset: false))
    }

    @Test func connectionResetFaultClosesAtOnceWithAReset() {
        var machine = newMachine()
        let action = machine.faultRequested(.connectionReset)
        #expect(action == .none, "no request being answered: nothing to break")
        _ = machine.requestReceived()
        let action2 = machine.faultRequested(.connectionReset)
        #expect(action2 == .close(reset: true))
        #expect(machine.stateCase == .closing)
        let action3 = machine.writeFinished(now: clock.now)
        #expect(action3 == .none, "closed: nothing more happens")
    }

    @Test func malformedRequestIsRefusedThenLingersUntilThePeerCloses() {
        var machine = newMachine()
        let action = machine.parseFailed(.badRequest, message: "bad")
        #expect(action == .refuse(.badRequest, message: "bad"))
        #expect(!machine.canParse)
        let action2 = machine.writeFinished(now: clock.now)
        #expect(action2 == .shutdownWrite(lingerUntil: clock.now + Self.timeouts.linger))
        let action3 = machine.peerHalfClosed(input: .idle, outputEmpty: true)
        #expect(action3 == .close(reset: false))
    }

    // MARK: The shell's flags

    @Test func answerGivenWhileParsingGoesOutWithTheReadNotThroughTheQueue() {
        var machine = newMachine()
        machine.processingBegins()
        #expect(machine.isProcessing)
        _ = machine.requestReceived()
        let staysOpen = machine.responseBegins(requestKeepAlive: true, handlerWantsClose: false, input: .idle)
        #expect(staysOpen)
        let queued = machine.responseQueued(input: .idle)
        #expect(queued == .none, "the read path flushes it itself")
        #expect(!machine.answerQueued)
        machine.processingEnds()
        #expect(!machine.isProcessing)
        #expect(machine.stateCase == .reading)
    }

    @Test func laterAnswerIsQueuedOnceAndSentWhenTaken() {
        var machine = newMachine()
        _ = machine.requestReceived()
        let queued = machine.responseQueued(input: .idle)
        #expect(queued == .queueAnswer)
        #expect(machine.answerQueued)
        // A pipelined request answered before the loop took the first: still queued once.
        _ = machine.requestReceived()
        let again = machine.responseQueued(input: .idle)
        #expect(again == .none, "the connection is in the loop's queue already")
        let taken = machine.queuedAnswerTaken()
        #expect(taken == .sendAnswer)
        #expect(!machine.answerQueued)
    }

    @Test func queuedAnswerOfAConnectionClosedMeanwhileIsDropped() {
        var machine = newMachine()
        _ = machine.requestReceived()
        let queued = machine.responseQueued(input: .idle)
        #expect(queued == .queueAnswer)
        let released = machine.socketClosed()
        #expect(released)
        let taken = machine.queuedAnswerTaken()
        #expect(taken == .none)
        #expect(!machine.answerQueued)
    }

    @Test func socketIsReleasedOnceAndNothingActsAfterIt() {
        var machine = newMachine()
        _ = machine.settle(now: clock.now, input: .head)
        let released = machine.socketClosed()
        #expect(released)
        #expect(machine.isClosed && machine.state == .closed && machine.deadline == nil)
        let again = machine.socketClosed()
        #expect(!again, "released once")
        let request = machine.requestReceived()
        let staysOpen = machine.responseBegins(requestKeepAlive: true, handlerWantsClose: false, input: .idle)
        let queued = machine.responseQueued(input: .idle)
        let deadline = machine.settle(now: clock.now, input: .idle)
        #expect(request == .none && !staysOpen && queued == .none && deadline == .keep)
        #expect(machine.state == .closed)
    }

    @Test func socketClosedAfterTheMachineDecidedToCloseIsReleased() {
        var machine = newMachine()
        let action = machine.peerHalfClosed(input: .idle, outputEmpty: true)
        #expect(action == .close(reset: false))
        #expect(!machine.isClosed && machine.state == .closing, "decided, not done: the shell closes the socket")
        let released = machine.socketClosed()
        #expect(released)
        #expect(machine.isClosed)
    }

    @Test func inputIsDrainedByAShortReadOrEAGAINUntilTheSocketIsReportedAgain() {
        var machine = newMachine()
        #expect(!machine.inputDrained)
        let full = machine.bytesRead(now: clock.now, drained: false)
        #expect(full == .none && !machine.inputDrained, "a full buffer: more may wait")
        let short = machine.bytesRead(now: clock.now, drained: true)
        #expect(short == .none && machine.inputDrained)
        machine.readinessReported()
        #expect(!machine.inputDrained)
        machine.readWouldBlock()
        #expect(machine.inputDrained)
    }

    @Test func timeoutsComeFromTheConfiguration() {
        let configuration = HTTPServerConfiguration(
            headerTimeout: .seconds(1), idleTimeout: .seconds(5), bodyTimeout: .seconds(3))
        let timeouts = ConnectionStateMachine.Timeouts(configuration)
        let expected = ConnectionStateMachine.Timeouts(
            header: 1_000_000_000, idle: 5_000_000_000, body: 3_000_000_000, linger: 2_000_000_000)
        #expect(timeouts == expected, "lingering lasts the idle timeout, at most 2 s")
    }
}
