import Dispatch
import HTTPCore
import HTTPHandlerKit
import Platform

/// Forwards requests to a live API through the front end's ``UpstreamClients`` and counts the
/// ones under way, so a caller stopping the server can wait for them (and for their
/// recording) to finish.
package final class UpstreamProxy: Sendable {
    private let transport: Locked<(any HTTPTransport)?>
    private let clients: UpstreamClients
    private let inFlight = Locked(InFlight())
    private let executor = ProxyExecutor()
    /// How proxy stubs' transfers run and their bounds.
    package let settings: UpstreamSettings
    /// Whether transfers may run on the event loops: as configured, when the clients can.
    private let loopDriven: Bool
    /// Where the upstream calls' durations are measured.
    private let clock: TimeSource

    private struct InFlight {
        var count = 0
        /// How many transfers ran on an event loop so far (tests tell the paths apart by it).
        var onLoops = 0
        /// How many of those went through petmock's own HTTP/1.1 client rather than libcurl.
        var native = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Creates a proxy over `clients`; the transport is made on first use.
    package init(clients: UpstreamClients, settings: UpstreamSettings = UpstreamSettings(), clock: TimeSource = .system)
    {
        self.clients = clients
        self.clock = clock
        transport = Locked(nil)
        self.settings = settings
        loopDriven = settings.onEventLoop && clients.sendOnLoop != nil
    }

    private func currentTransport() -> any HTTPTransport {
        transport.withLock { transport in
            if let transport { return transport }
            let made = clients.makeTransport(settings)
            transport = made
            return made
        }
    }

    /// The URL a request goes to: the target (without a trailing slash) plus the request's
    /// path and query.
    package static func upstreamURL(target: String, originForm: Substring) -> String {
        var base = target
        while base.hasSuffix("/") { base.removeLast() }
        return base + originForm
    }

    /// The request that goes upstream: the target's URL, the forwarded headers, and a body for
    /// the methods that carry one.
    package static func upstreamRequest(
        method: HTTPMethod, originForm: Substring, headers: HTTPHeaders, body: [UInt8], target: String,
        timeout: Duration
    ) -> HTTPClientRequest {
        let sendsBody = !body.isEmpty || method == .post || method == .put || method == .patch
        return HTTPClientRequest(
            method: method, url: upstreamURL(target: target, originForm: originForm),
            headers: HeaderRules.forwardedRequestHeaders(headers), body: sendsBody ? body : nil, timeout: timeout)
    }

    /// Sends the request upstream and waits for the whole answer.
    package func forward(
        method: HTTPMethod, originForm: Substring, headers: HTTPHeaders, body: [UInt8], target: String,
        timeout: Duration
    ) async -> UpstreamResult {
        let request = Self.upstreamRequest(
            method: method, originForm: originForm, headers: headers, body: body, target: target, timeout: timeout)
        let start = clock.monotonicNanoseconds
        let outcome: Result<HTTPClientResponse, HTTPClientError>
        do {
            outcome = .success(try await currentTransport().send(request))
        } catch {
            outcome = .failure(error)
        }
        return UpstreamResult(url: request.url, outcome: outcome, duration: clock.elapsed(since: start))
    }

    /// Sends the request upstream and calls `completion` with the whole answer, counted like
    /// ``run(_:)``'s work; returns false, without calling `completion`, when `loop` has as many
    /// transfers under way as it may. No task: with a `loop` (and ``UpstreamSettings/onEventLoop``)
    /// the transfer runs on that loop's thread (``LoopUpstream``), which calls `completion`;
    /// else on libcurl's shared I/O thread. Either way `completion` must only hand the answer
    /// on (journal it, complete a deferred reply), never block or write files.
    package func forward(
        method: HTTPMethod, originForm: Substring, headers: HTTPHeaders, body: [UInt8], target: String,
        timeout: Duration, on requestLoop: (any HTTPRequestLoop)? = nil,
        completion: @escaping @Sendable (UpstreamResult) -> Void
    ) -> Bool {
        let request = Self.upstreamRequest(
            method: method, originForm: originForm, headers: headers, body: body, target: target, timeout: timeout)
        return send(request, on: requestLoop, completion: completion)
    }

    /// Sends `request` as it is (a webhook's call) as ``forward(method:originForm:headers:body:target:timeout:on:completion:)``
    /// sends a forwarded one: on `requestLoop` when it can, else through the transport;
    /// false, without calling `completion`, when the loop has as many transfers under way as
    /// it may.
    package func send(
        _ request: HTTPClientRequest, on requestLoop: (any HTTPRequestLoop)?,
        completion: @escaping @Sendable (UpstreamResult) -> Void
    ) -> Bool {
        let start = clock.monotonicNanoseconds
        let url = request.url
        let finish: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void = { [self] outcome in
            completion(UpstreamResult(url: url, outcome: outcome, duration: clock.elapsed(since: start)))
            finishedOne()
        }
        // Only on the loop's own thread (a handler called elsewhere with a request that came
        // through a loop takes the threaded path).
        if loopDriven, let requestLoop, let sendOnLoop = clients.sendOnLoop {
            let sent = sendOnLoop(request, requestLoop, finish) { native in
                // Counted before the transfer starts, since it may finish at once.
                inFlight.withLock { state in
                    state.count += 1
                    state.onLoops += 1
                    if native { state.native += 1 }
                }
            }
            switch sent {
            case .started: return true
            case .full: return false
            case .notOnLoop: break
            }
        }
        inFlight.withLock { $0.count += 1 }
        currentTransport().send(request, completion: finish)
        return true
    }

    /// Runs `work` on `requestLoop`'s thread after `delay` (the front end's timer), or, with
    /// no loop that can, after `delay` on a dispatch timer: no thread sleeps meanwhile. When the
    /// loop stops before the work runs, `dropped` is called instead.
    package func schedule(
        after delay: Duration, on requestLoop: (any HTTPRequestLoop)?, _ work: @escaping @Sendable () -> Void,
        ifDropped dropped: @escaping @Sendable () -> Void = {}
    ) {
        if let requestLoop, let scheduleOnLoop = clients.scheduleOnLoop,
            scheduleOnLoop(requestLoop, delay, work, dropped)
        {
            return
        }
        let nanoseconds = Int(clamping: delay.nanoseconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
    }

    /// Runs `work` as a counted task: ``drained()`` waits for it.
    package func run(_ work: @escaping @Sendable () async -> Void) {
        inFlight.withLock { $0.count += 1 }
        Task(executorPreference: executor) { [self] in
            await work()
            finishedOne()
        }
    }

    private func finishedOne() {
        let waiters = inFlight.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many forwarded requests ran on an event loop's own thread so far.
    package var loopDrivenCount: Int { inFlight.withLock { $0.onLoops } }

    /// How many forwarded requests went through petmock's own HTTP/1.1 client so far.
    package var nativeCount: Int { inFlight.withLock { $0.native } }

    /// How many forwarded requests are under way.
    package var pendingCount: Int { inFlight.withLock { $0.count } }

    /// Suspends until no forwarded request is under way.
    package func drained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = inFlight.withLock { state -> Bool in
                if state.count == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
