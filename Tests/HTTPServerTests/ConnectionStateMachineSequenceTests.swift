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

    /// Applies one event picked by `choice` at `now`; returns its action.
    static func apply(_ choice: UInt64, to machine: inout Machine, now: UInt64) -> Machine.Action {
        let input = inputs[Int((choice >> 8) % 4)]
        let flag = (choice >> 12) & 1 == 1
        switch choice % 22 {
        case 0: return machine.bytesRead(now: now, drained: flag)
        case 1: return machine.outputQueued(pendingBytes: flag ? Machine.outputHighWater : 0)
        case 2: return machine.outputDrained()
        case 3: return machine.headReceived(expectsContinue: flag)
        case 4: return machine.requestReceived()
        case 5: return machine.parseFailed(.badRequest, message: "bad")
        case 6: return machine.responseBegins(requestKeepAlive: flag, handlerWantsClose: false, input: input)
        case 7: return machine.dribbleBegins()
        case 8: return machine.responseQueued(input: input)
        case 9: return machine.faultRequested(flag ? .connectionReset : .emptyResponse)
        case 10: return machine.writeFinished(now: now)
        case 11: return machine.writeWouldBlock()
        case 12: return machine.peerHalfClosed(input: input, outputEmpty: flag)
        case 13: return machine.deadlineReached(now: now)
        case 14: return machine.shutdownRequested(input: input, outputEmpty: flag)
        case 15: return machine.readWouldBlock()
        case 16: return machine.readinessReported()
        case 17: return machine.isProcessing ? machine.processingEnds() : machine.processingBegins()
        case 18: return machine.queuedAnswerTaken()
        // Rarely, the loop closes the socket under the machine (a read error, an eviction).
        case 19:
            switch (choice >> 20) % 8 {
            case 0: return machine.socketClosed()
            case 1: return machine.evictionRequested(status: .serviceUnavailable, outputEmpty: flag)
            default: return machine.readinessReported()
            }
        default: return machine.writeFailed()
        }
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
            let action = Self.apply(choice, to: &machine, now: now)
            if case .close = action { #expect(machine.phase == .closed) }
            if action == .queueAnswer {
                #expect(!wasQueued && !machine.isProcessing, "queued once, and only outside the read path")
            }
            if action == .releaseSocket { #expect(machine.isClosed && machine.deadline == nil) }
            if case .handRequest(let number) = action {
                #expect(number == handed + 1, "requests are handed over in order")
                handed = number
                requests += 1
            }
            let input = Self.inputs[Int((choice >> 16) % 4)]
            if case .arm(_, let at) = machine.settle(now: now, input: input) { #expect(at >= now) }
            switch machine.phase {
            case .reading, .finishing, .closing:
                #expect(machine.deadline != nil, "an open connection waiting on its client has a deadline")
            case .awaitingResponse, .responding:
                #expect((machine.deadline != nil) == machine.writeBlocked, "the handler's time is not bounded here")
            case .closed:
                #expect(machine.deadline == nil)
            }
            if machine.phase == .closed {
                // The shell closes the socket: released once, if the loop had not already.
                let release = machine.socketClosed()
                #expect(release == (action == .releaseSocket ? .none : .releaseSocket))
                for _ in 0..<4 {
                    let late = Self.apply(random.next(), to: &machine, now: now)
                    #expect(late == .none, "a closed connection acts no more")
                }
                #expect(machine.phase == .closed)
                machine = Machine(timeouts: timeouts, now: now)
                handed = 0
            }
        }
        #expect(requests > 100, "the run reached the handler often")
    }
}
