import HTTPCore
import Testing

@testable import HTTPServerKit

/// Long seeded runs of arbitrary events: whatever a client, handler and loop do, a connection
/// the machine keeps open is always under a deadline, an answer is queued on the loop at most
/// once and never from the read path, a socket is released once, and a closed connection
/// stays closed.
@Suite struct ConnectionStateMachineSequenceTests {
    typealias Machine = ConnectionStateMachine

    static let inputs: [Machine.Input] = [.idle, .buffered, .head, .body]

    /// What one event returned: an action, or what the events that return none said.
    enum Outcome: Equatable {
        case action(Machine.Action)
        /// `socketClosed` found the socket open: the caller releases it.
        case released
        /// `evictionRequested` closed an open connection, with the answer to send first, if any.
        case evicted(answer: HTTPStatus?)

        static let nothing = Outcome.action(.none)
    }

    /// Applies one event picked by `choice` at `now`; returns what it returned.
    static func apply(_ choice: UInt64, to machine: inout Machine, now: UInt64) -> Outcome {
        let input = inputs[Int((choice >> 8) % 4)]
        let flag = (choice >> 12) & 1 == 1
        let action: Machine.Action
        switch choice % 22 {
        case 0: action = machine.bytesRead(now: now, drained: flag)
        case 1:
            machine.outputQueued(pendingBytes: flag ? Machine.outputHighWater : 0)
            return .nothing
        case 2:
            _ = machine.outputDrained()
            return .nothing
        case 3: action = machine.headReceived(expectsContinue: flag)
        case 4: action = machine.requestReceived()
        case 5: action = machine.parseFailed(.badRequest, message: "bad")
        case 6:
            _ = machine.responseBegins(requestKeepAlive: flag, handlerWantsClose: false, input: input)
            return .nothing
        case 7:
            machine.dribbleBegins()
            return .nothing
        case 8: action = machine.responseQueued(input: input)
        case 9: action = machine.faultRequested(flag ? .connectionReset : .emptyResponse)
        case 10: action = machine.writeFinished(now: now)
        case 11:
            machine.writeWouldBlock()
            return .nothing
        case 12: action = machine.peerHalfClosed(input: input, outputEmpty: flag)
        case 13: action = machine.deadlineReached(now: now)
        case 14: action = machine.shutdownRequested(input: input, outputEmpty: flag)
        case 15:
            machine.readWouldBlock()
            return .nothing
        case 16:
            machine.readinessReported()
            return .nothing
        case 17:
            if machine.isProcessing { machine.processingEnds() } else { machine.processingBegins() }
            return .nothing
        case 18: action = machine.queuedAnswerTaken()
        // Rarely, the loop closes the socket under the machine (a read error, an eviction).
        case 19:
            switch (choice >> 20) % 8 {
            case 0:
                return machine.socketClosed() ? .released : .nothing
            case 1:
                let open = machine.stateCase != .closing && machine.stateCase != .closed
                let answer = machine.evictionRequested(status: .serviceUnavailable, outputEmpty: flag)
                if open { #expect(machine.stateCase == .closing, "evicted: the socket is closed next") }
                return open ? .evicted(answer: answer) : .nothing
            default:
                machine.readinessReported()
                return .nothing
            }
        default: action = machine.writeFailed()
        }
        return .action(action)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func openConnectionsAreAlwaysUnderADeadlineAndClosedOnesStayClosed(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let timeouts = Machine.Timeouts(header: 10, idle: 60, body: 30, linger: 2)
        var now: UInt64 = 1000
        var machine = Machine(timeouts: timeouts, now: now)
        var handed: UInt64 = 0
        var requests = 0
        for _ in 0..<8000 {
            now += random.next() % 20
            let choice = random.next()
            let wasQueued = machine.answerQueued
            let outcome = Self.apply(choice, to: &machine, now: now)
            if case .action(.close) = outcome { #expect(machine.stateCase == .closing) }
            if outcome == .action(.queueAnswer) {
                #expect(!wasQueued && !machine.isProcessing, "queued once, and only outside the read path")
            }
            if outcome == .released { #expect(machine.isClosed && machine.deadline == nil) }
            if case .action(.handRequest(let number)) = outcome {
                #expect(number == handed + 1, "requests are handed over in order")
                handed = number
                requests += 1
            }
            let input = Self.inputs[Int((choice >> 16) % 4)]
            if case .arm(_, let at) = machine.settle(now: now, input: input) { #expect(at >= now) }
            switch machine.state {
            case .reading, .finishing:
                #expect(machine.deadline != nil, "an open connection waiting on its client has a deadline")
            case .lingering:
                #expect(machine.deadline?.kind == .linger, "lingering is bounded by its own deadline")
            case .awaitingResponse, .responding:
                #expect((machine.deadline != nil) == machine.writeBlocked, "the handler's time is not bounded here")
            case .closing, .closed:
                #expect(machine.deadline == nil)
            }
            if machine.stateCase == .closing || machine.stateCase == .closed {
                // The shell closes the socket: released once, if the loop had not already.
                let released = machine.socketClosed()
                #expect(released == (outcome != .released))
                for _ in 0..<4 {
                    let late = Self.apply(random.next(), to: &machine, now: now)
                    #expect(late == .nothing, "a closed connection acts no more")
                }
                #expect(machine.state == .closed)
                machine = Machine(timeouts: timeouts, now: now)
                handed = 0
            }
        }
        #expect(requests > 100, "the run reached the handler often")
    }
}
