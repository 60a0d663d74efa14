import Dispatch
import Foundation
import HTTPCore
import HTTPHandlerKit
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays one `HTTPReply` to a URLProtocol's client as URLSession would receive it from a
/// server, carrying out its `DeliveryPlan` (HTTPHandlerKit: framing, body, delay drawn once,
/// dribble's pieces): the response and its body, a fault's error, a deferred reply once
/// complete, and delays and dribbles recorded on the host (and waited, on timers, when it asks
/// for that). ``stop()`` cancels whatever is still pending.
final class ReplyDelivery: Sendable {
    private let sink: ProtocolClientSink
    /// Held weakly: a pending reply does not keep its released host alive.
    private weak let host: StubURLSessionHost?
    private let waitsForDelays: Bool
    private let url: URL
    /// The request as the plan frames it: its method, HTTP/1.1, never gzip.
    private let request: DeliveryRequest
    /// The timer of a waited delay or dribble chunk, cancelled by ``stop()``.
    private let timer = Locked<DispatchWorkItem?>(nil)

    init(sink: ProtocolClientSink, host: StubURLSessionHost, url: URL, method: HTTPMethod) {
        self.sink = sink
        self.host = host
        waitsForDelays = host.options.waitsForDelays
        self.url = url
        request = DeliveryRequest(method: method)
    }

    /// Plays `reply`.
    func play(_ reply: HTTPReply) {
        guard !sink.isStopped else { return }
        switch reply.plan(for: request) {
        case .prepared(let prepared, _, _):
            send(ResponseDelivery(prepared.response, for: request, chunked: false))
        case .response(let delivery):
            send(delivery)
        case .fault(let fault):
            fail(with: fault)
        case .wait(let duration, let inner):
            host?.record(delay: duration)
            guard waitsForDelays, duration > .zero else { return play(inner) }
            schedule(after: duration) { $0.play(inner) }
        case .dribbled(let delivery, let pacing, let pieces):
            host?.record(dribble: pacing)
            guard waitsForDelays else { return send(delivery) }
            dribble(delivery, pacing, pieces)
        case .later(let deferred):
            deferred.whenComplete { [self] reply in play(reply) }
        }
    }

    /// Cancels a pending timer; nothing reaches the client after this.
    func stop() {
        sink.stop()
        timer.withLock { timer in
            defer { timer = nil }
            return timer
        }?.cancel()
    }

    private func send(_ delivery: ResponseDelivery) {
        guard let head = HTTPURLResponse.from(delivery, url: url) else {
            return sink.failed(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
        sink.received(head)
        if !delivery.body.isEmpty { sink.loaded(Data(delivery.body)) }
        sink.finished()
    }

    /// The client's view of a fault: a response whose body breaks off gets its head (and the
    /// bytes that came) before the error, as over a socket.
    private func fail(with fault: HTTPFault) {
        switch fault {
        case .truncatedBody(let response, let keepingBytes):
            let delivery = ResponseDelivery(response, for: request, chunked: false)
            if let head = HTTPURLResponse.from(delivery, url: url) {
                sink.received(head)
                let kept = delivery.body.prefix(HTTPFault.keptBytes(of: response, keeping: keepingBytes))
                if !kept.isEmpty { sink.loaded(Data(kept)) }
            }
        case .malformedResponseChunk(let status, let headers):
            let response = HTTPResponse(status: status, headers: headers, framing: .chunked)
            let delivery = ResponseDelivery(response, for: request, chunked: true)
            if let head = HTTPURLResponse.from(delivery, url: url) { sink.received(head) }
        case .emptyResponse, .connectionReset, .randomDataThenClose:
            break
        }
        sink.failed(fault.urlError(for: url))
    }

    /// Sends the head at once and the body in the plan's pieces, each at its time.
    /// FoundationNetworking hands a completion handler only the last piece a URLProtocol
    /// loads, so there the body comes whole, once the dribble's duration has passed.
    private func dribble(
        _ delivery: ResponseDelivery, _ dribble: HTTPDribble, _ pieces: [(bytes: Range<Int>, after: Duration)]
    ) {
        guard let head = HTTPURLResponse.from(delivery, url: url) else {
            return sink.failed(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
        sink.received(head)
        let body = delivery.body
        #if canImport(FoundationNetworking)
        schedule(after: dribble.duration) { $0.sendPiece(0, of: [(Data(body), .zero)]) }
        #else
        sendPiece(0, of: pieces.map { (Data(body[$0.bytes]), $0.after) })
        #endif
    }

    /// Loads piece `index`, then schedules the next at its time after the first.
    private func sendPiece(_ index: Int, of pieces: [(data: Data, after: Duration)]) {
        guard index < pieces.count else { return sink.finished() }
        if !pieces[index].data.isEmpty { sink.loaded(pieces[index].data) }
        guard index + 1 < pieces.count else { return sink.finished() }
        schedule(after: pieces[index + 1].after - pieces[index].after) { $0.sendPiece(index + 1, of: pieces) }
    }

    private func schedule(after duration: Duration, _ work: @escaping @Sendable (ReplyDelivery) -> Void) {
        // The item holds this delivery and the delivery the item, until it runs (below) or
        // is cancelled (`stop()`): either lets go of it, so a finished delivery is freed.
        let item = DispatchWorkItem { [self] in
            timer.withLock { $0 = nil }
            work(self)
        }
        let installed = timer.withLock { timer -> Bool in
            guard !sink.isStopped else { return false }
            timer = item
            return true
        }
        guard installed else { return }
        let nanoseconds = Int(clamping: duration.nanoseconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: item)
    }
}
