import HTTPCore
import PetClient
import Platform

/// A Pet API made of canned responses behind a ``ClosureTransport``; it records every
/// request and can hold vet requests at a ``ConcurrencyGate``.
final class FakePetAPI: Sendable {
    static let baseURL = "http://pets.test/api"

    private let routes: [String: HTTPClientResponse]
    private let gate: ConcurrencyGate?
    private let recorded = Locked<[HTTPClientRequest]>([])

    init(routes: [String: HTTPClientResponse], gate: ConcurrencyGate? = nil) {
        self.routes = routes
        self.gate = gate
    }

    /// Pets given as JSON text and vets by id as JSON text (a missing id answers 404).
    convenience init(petsJSON: String, vetsJSON: [Int: String], gate: ConcurrencyGate? = nil) {
        var routes: [String: HTTPClientResponse] = ["/pets": .json(petsJSON)]
        for (id, json) in vetsJSON { routes["/vets/\(id)"] = .json(json) }
        self.init(routes: routes, gate: gate)
    }

    var requests: [HTTPClientRequest] { recorded.withLock { $0 } }
    var paths: [String] { requests.map { String($0.url.dropFirst(Self.baseURL.count)) } }

    var transport: ClosureTransport {
        ClosureTransport { [self] request throws(HTTPClientError) in
            recorded.withLock { $0.append(request) }
            let path = String(request.url.dropFirst(Self.baseURL.count))
            if path.hasPrefix("/vets/"), let gate {
                try await gate.pass(url: request.url)
            }
            var response =
                routes[path]
                ?? .json(#"{"code":404,"message":"no route \#(path)"}"#, status: .notFound)
            response.url = request.url
            return response
        }
    }

    func service() -> RESTPetService {
        RESTPetService(baseURL: Self.baseURL, transport: transport)
    }
}

extension HTTPClientResponse {
    static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPClientResponse {
        HTTPClientResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }
}

/// Holds requests until `bound` of them (or all that remain) are waiting, then lets that
/// batch through; records the most ever in flight. Without it concurrency could not be
/// observed without sleeping. With `releases: false` it holds requests until cancelled.
final class ConcurrencyGate: Sendable {
    private struct State {
        var waiting: [Waiter] = []
        var inFlight = 0
        var maxInFlight = 0
        var arrived = 0
        var remaining: Int
        var cancelledEarly: Set<Int> = []
    }

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    let bound: Int
    let releases: Bool
    private let state: Locked<State>
    private let arrivals: AsyncStream<Int>.Continuation
    /// Yields the arrival count each time a request reaches the gate.
    let arrivalCounts: AsyncStream<Int>

    init(bound: Int, total: Int, releases: Bool = true) {
        self.bound = bound
        self.releases = releases
        state = Locked(State(remaining: total))
        (arrivalCounts, arrivals) = AsyncStream.makeStream()
    }

    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// Waits at the gate; throws a cancellation error when the task is cancelled first.
    func pass(url: String) async throws(HTTPClientError) {
        let id = state.withLock { state -> Int in
            state.arrived += 1
            return state.arrived
        }
        let released = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (batch, arrived, cancelledEarly) = state.withLock { state -> ([Waiter], Int, Bool) in
                    state.inFlight += 1
                    state.maxInFlight = max(state.maxInFlight, state.inFlight)
                    if state.cancelledEarly.remove(id) != nil { return ([], state.arrived, true) }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    guard releases, state.waiting.count == min(bound, state.remaining) else {
                        return ([], state.arrived, false)
                    }
                    state.remaining -= state.waiting.count
                    defer { state.waiting = [] }
                    return (state.waiting, state.arrived, false)
                }
                arrivals.yield(arrived)
                if cancelledEarly { continuation.resume(returning: false) }
                for waiter in batch { waiter.continuation.resume(returning: true) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.waiting.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
        state.withLock { $0.inFlight -= 1 }
        if !released {
            throw HTTPClientError(kind: .cancelled, url: url, message: "cancelled at the gate")
        }
    }
}
