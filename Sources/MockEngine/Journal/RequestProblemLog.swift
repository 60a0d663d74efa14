import HTTPHandlerKit
import Platform

/// The problems of the requests petmock refused (``RequestProblem``), for
/// `GET /__admin/petmock/problems` and a test's verification: each distinct problem once, with
/// the first request that had it and how many did. Bounded: past ``capacity`` distinct problems,
/// new ones are only counted, so clients cannot grow it without end. Emptied with the journal.
package final class RequestProblemLog: ServeListener, Sendable {
    private struct State {
        var entries: [RequestProblemCount] = []
        var positions: [RequestProblem: Int] = [:]
        var omitted = 0
    }

    /// How many distinct problems it keeps.
    package let capacity: Int
    private let state = Locked(State())

    package init(capacity: Int = 100) {
        self.capacity = capacity
    }

    func served(_ request: HTTPServerRequest, _ outcome: ServeOutcome) {
        guard let problem = outcome.problem else { return }
        state.withLock { state in
            if let position = state.positions[problem] {
                state.entries[position].count += 1
            } else if state.entries.count < capacity {
                state.positions[problem] = state.entries.count
                let first = "\(request.method) \(request.head.originForm)"
                state.entries.append(RequestProblemCount(problem: problem, request: first, count: 1))
            } else {
                state.omitted += 1
            }
        }
    }

    /// The problems kept, in the order first seen, and how many requests had problems not kept.
    package var snapshot: (problems: [RequestProblemCount], omitted: Int) {
        state.withLock { ($0.entries, $0.omitted) }
    }

    /// Forgets every problem.
    package func clear() {
        state.withLock { $0 = State() }
    }
}
