import HTTPCore
import Testing

@testable import HTTPServerKit

/// Long seeded runs of arbitrary events: whatever a client and handler do, a connection the
/// machine keeps open is always under a deadline, and a closed one stays closed.
@Suite struct ConnectionStateMachineSequenceTests {
    typealias Machine = ConnectionStateMachine

    static let inputs: [Machine.Input] = [.idle, .buffered, .head, .body]

    /// Applies one event picked by `choice` at `now`; returns the action, if the event has one.
    static func apply(_ choice: UInt64, to machine: inout Machine, now: UInt64) -> Machine.Action? {
        let input = inputs[Int((choice >> 8) % 4)]
        let flag = (choice >> 12) & 1 == 1
        switch choice % 16 {
        case 0: machine.bytesArrived(now: now)
        case 1: return machine.outputQueued(pendingBytes: flag ? Machine.outputHighWater : 0)
        case 2: return machine.outputDrained()
        case 3: return machine.headReceived(expectsContinue: flag)
        case 4: return machine.requestReceived()
        case 5: return machine.parseFailed(.badRequest, message: "bad")
        case 6: _ = machine.responseBegins(requestKeepAlive: flag, handlerWantsClose: false, input: input)
        case 7: machine.dribbleBegins()
        case 8: machine.responseQueued(input: input)
        case 9: return machine.faultRequested(flag ? .connectionReset : .emptyResponse)
        case 10: return machine.writeFinished(now: now)
        case 11: machine.writeWouldBlock()
        case 12: return machine.peerHalfClosed(input: input, outputEmpty: flag)
        case 13: return machine.deadlineReached(now: now)
        case 14: return machine.shutdownRequested(input: input, outputEmpty: flag)
        default: return machine.writeFailed()
        }
        return nil
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func openConnectionsAreAlwaysUnderADeadlineAndClosedOnesStayClosed(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let timeouts = Machine.Timeouts(header: 10, idle: 60, body: 30, linger: 2)
        var now: UInt64 = 1000
        var machine = Machine(timeouts: timeouts, now: now)
        var handed: UInt64 = 0
        var requests = 0
        for _ in 0..<5000 {
            now += random.next() % 20
            let choice = random.next()
            let action = Self.apply(choice, to: &machine, now: now)
            if case .close = action { #expect(machine.phase == .closed) }
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
                for _ in 0..<4 {
                    let late = Self.apply(random.next(), to: &machine, now: now)
                    #expect(late == nil || late == Machine.Action.none, "a closed connection acts no more")
                }
                #expect(machine.phase == .closed)
                machine = Machine(timeouts: timeouts, now: now)
                handed = 0
            }
        }
        #expect(requests > 100, "the run reached the handler often")
    }
}
