import HTTPCore
import HTTPHandlerKit
import Platform

/// The listener that sends a stub's webhooks, and the document's callbacks
/// (``FallbackAnswer/callbacks``), once the answer is committed: it admits each call
/// and returns; the call is rendered from the triggering request and handed to the front end's
/// upstream clients later (on the request's event loop when it has one, after the call's delay
/// on that loop's timers, or at its next turn), so the answer is never delayed or changed. Bounded: at most
/// ``UpstreamSettings/maxWebhooksInFlight`` calls waiting or under way (a call beyond is
/// recorded as refused, not queued), each with ``UpstreamSettings/webhookTimeout``, and no
/// retries. Every call's outcome goes to the ``WebhookLog``; a failed or refused one is also
/// told to the server's event subscribers, at most once a second (with how many were not).
final class WebhookDispatcher: ServeListener, Sendable {
    let proxy: UpstreamProxy
    let log: WebhookLog
    let clock: TimeSource
    let publish: @Sendable (StubServerEvent) -> Void
    private let inFlight = Locked(0)
    /// Failure lines: at most one a second.
    private let lines = Locked(FailureLineLimit())

    init(
        proxy: UpstreamProxy, log: WebhookLog, clock: TimeSource, publish: @escaping @Sendable (StubServerEvent) -> Void
    ) {
        self.proxy = proxy
        self.log = log
        self.clock = clock
        self.publish = publish
    }

    /// How many calls are waiting for their delay or under way.
    var pendingCount: Int { inFlight.withLock { $0 } }

    @inline(__always) func served(_ request: HTTPServerRequest, _ outcome: ServeOutcome) {
        if let stub = outcome.stub, !stub.webhooks.isEmpty {
            for webhook in stub.webhooks { fire(webhook, request, stub) }
        } else if outcome.hasDetails, let callbacks = outcome.document?.callbacks, !callbacks.isEmpty {
            for callback in callbacks { fire(callback, request) }
        }
    }

    private func fire(_ webhook: CompiledWebhook, _ request: HTTPServerRequest, _ stub: CompiledStub) {
        let call = WebhookCall(
            sequence: 0, date: clock.wallMilliseconds, method: webhook.definition.method, url: webhook.definition.url,
            request: "\(request.method) \(request.head.originForm)", stubID: stub.mapping.id,
            stubName: stub.mapping.name, result: .refused(""), duration: .zero)
        guard admit(call) else { return }
        // Rendered and sent later, on the request's loop when it has one (after the call's
        // delay, or at its next turn): the answer is written first, and a template over a large
        // body never runs ahead of it.
        let delay = webhook.delay.httpDelay().sample()
        let loop = request.eventLoop
        proxy.schedule(
            after: delay, on: loop,
            { [self] in
                let made = webhook.render(request, stub: stub, timeout: proxy.settings.webhookTimeout, clock: clock)
                send(made.mapError { DocumentCallback.Failure(url: $0.url, message: $0.message) }, call, on: loop)
            }, ifDropped: { [self] in dropped(call) })
    }

    /// A document's callback, sent as a webhook with no delay: made from the exchange at the
    /// loop's next turn, after the answer is written.
    private func fire(_ callback: DocumentCallback, _ request: HTTPServerRequest) {
        var made = WebhookCall(
            sequence: 0, date: clock.wallMilliseconds, method: callback.method, url: callback.url,
            request: "\(request.method) \(request.head.originForm)", stubID: "", stubName: nil, result: .refused(""),
            duration: .zero)
        made.callback = WebhookCall.Callback(name: callback.name, operation: callback.operation)
        let call = made
        guard admit(call) else { return }
        let loop = request.eventLoop
        proxy.schedule(
            after: .zero, on: loop,
            { [self] in send(callback.makeRequest(proxy.settings.webhookTimeout), call, on: loop) },
            ifDropped: { [self] in dropped(call) })
    }

    /// A call whose loop stopped before it was sent: its slot is given back, and it is logged.
    private func dropped(_ call: WebhookCall) {
        finish(call, .refused("the server stopped before the call was sent"), counted: true)
    }

    /// Takes an in-flight slot for `call`; false, with the call logged as refused, when all
    /// are taken.
    private func admit(_ call: WebhookCall) -> Bool {
        let limit = proxy.settings.maxWebhooksInFlight
        let admitted = inFlight.withLock { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        if !admitted {
            finish(call, .refused("\(limit) webhook calls are waiting or under way (the limit)"), counted: false)
        }
        return admitted
    }

    private func send(
        _ made: Result<HTTPClientRequest, DocumentCallback.Failure>, _ call: WebhookCall,
        on loop: (any HTTPRequestLoop)?
    ) {
        var call = call
        let outgoing: HTTPClientRequest
        switch made {
        case .success(let rendered): outgoing = rendered
        case .failure(let failure):
            call.url = failure.url
            return finish(call, .refused(failure.message), counted: true)
        }
        call.method = outgoing.method.rawValue
        call.url = outgoing.url
        send(outgoing, call, on: loop)
    }

    private func send(_ outgoing: HTTPClientRequest, _ call: WebhookCall, on loop: (any HTTPRequestLoop)?) {
        let started = proxy.send(outgoing, on: loop) { [self] result in
            var call = call
            call.duration = result.duration
            switch result.outcome {
            case .success(let response): finish(call, .answered(status: response.status.code), counted: true)
            case .failure(let error): finish(call, .failed(error.message), counted: true)
            }
        }
        if !started {
            finish(call, .refused("the event loop's upstream transfers are at their limit"), counted: true)
        }
    }

    private func finish(_ call: WebhookCall, _ result: WebhookCall.Result, counted: Bool) {
        if counted { inFlight.withLock { $0 -= 1 } }
        var call = call
        call.result = result
        log.record(call)
        if case .answered = result { return }
        let now = clock.monotonicNanoseconds
        let untold = lines.withLock { $0.tell(at: now) }
        guard let untold else { return }
        publish(.webhook(call, untold: untold))
    }
}
