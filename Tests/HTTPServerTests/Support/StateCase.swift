@testable import HTTPServerKit

/// A connection state's case without what it carries (but whether finishing lingers), for
/// expectations about where a sequence of events leads.
enum StateCase: Equatable {
    case reading, awaitingResponse, responding, finishing(linger: Bool), lingering, closing, closed
}

extension ConnectionStateMachine {
    /// The case of the machine's state.
    var stateCase: StateCase {
        switch state {
        case .reading: .reading
        case .awaitingResponse: .awaitingResponse
        case .responding: .responding
        case .finishing(let linger): .finishing(linger: linger)
        case .lingering: .lingering
        case .closing: .closing
        case .closed: .closed
        }
    }
}
