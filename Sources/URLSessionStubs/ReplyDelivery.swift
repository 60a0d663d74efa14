import Dispatch
import Foundation
import HTTPCore
import HTTPHandlerKit
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays one `HTTPReply` to a URLProtocol's client as URLSession would receive it from a
/// server: the response and its body, a fault's error, a deferred reply once complete, and
/// delays and dribbles recorded on the host (and waited, on timers, when it asks for that).
/// ``stop()`` cancels whatever is still pending.
final class ReplyDelivery: Sendable {
    private let sink: ProtocolClientSink
    /// Held weakly: a pending reply does not keep its released host (and its token) alive.
    private weak let host: StubURLSessionHost?
    private let waitsForDelays: Bool
    private let url: URL
    private let sendsBody: Bool
    /// The timer of a waited delay or dribble chunk, cancelled by ``stop()``.
    private let timer = Locked<DispatchWorkItem?>(nil)

    init(sink: ProtocolClientSink, host: StubURLSessionHost, url: URL, method: HTTPMethod) {
        self.sink = sink
        self.host = host
        waitsForDelays = host.options.waitsForDelays
        self.url = url
        sendsBody = method != .head
    }

    /// Plays `reply`.
    func play(_ reply: HTTPReply) {
        guard !sink.isStopped else { return }
        switch reply {
        case .response(let response):
            send(response, chunked: response.framing == .chunked)
        case .prepared(let prepared):
            send(prepared.response, chunked: false)
        case .fault(let fault):
            fail(with: fault)
        case .delayed(let inner, let delay):
            let duration = delay.sample()
            host?.record(delay: duration)
            guard waitsForDelays, duration > .zero else { return play(inner) }
            schedule(after: duration) { $0.play(inner) }
        case .dribbled(let response, let pacing):
            host?.record(dribble: pacing)
            guard waitsForDelays else { return send(response, chunked: true) }
            dribble(response, pacing)
        case .deferred(let deferred):
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

    private func send(_ response: HTTPResponse, chunked: Bool) {
        guard let head = HTTPURLResponse.from(response, url: url, chunked: chunked) else {
            return sink.failed(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
        sink.received(head)
        if sendsBody && !response.status.forbidsBody && !response.body.isEmpty { sink.loaded(Data(response.body)) }
        sink.finished()
    }

    /// The client's view of a fault: a response whose body breaks off gets its head (and the
    /// bytes that came) before the error, as over a socket.
    private func fail(with fault: HTTPFault) {
        switch fault {
        case .truncatedBody(let response, let keepingBytes):
            if let head = HTTPURLResponse.from(response, url: url, chunked: false) {
                sink.received(head)
                let kept = response.body.prefix(max(0, keepingBytes))
                if sendsBody && !kept.isEmpty { sink.loaded(Data(kept)) }
            }
        case .malformedResponseChunk(let status, let headers):
            let response = HTTPResponse(status: status, headers: headers, framing: .chunked)
            if let head = HTTPURLResponse.from(response, url: url, chunked: true) { sink.received(head) }
        case .emptyResponse, .connectionReset, .randomDataThenClose:
            break
        }
        sink.failed(fault.urlError(for: url))
    }

    /// Sends the head at once and the body in `dribble.chunkCount` pieces spread over its
    /// duration. FoundationNetworking hands a completion handler only the last piece a
    /// URLProtocol loads, so there the body comes whole, once the duration has passed.
    private func dribble(_ response: HTTPResponse, _ dribble: HTTPDribble) {
        guard let head = HTTPURLResponse.from(response, url: url, chunked: true) else {
            return sink.failed(URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
        sink.received(head)
        let body = sendsBody && !response.status.forbidsBody ? response.body : []
        #if canImport(FoundationNetworking)
        schedule(after: dribble.duration) { $0.sendPiece(0, of: [Data(body)], every: .zero) }
        #else
        let count = max(1, min(dribble.chunkCount, body.count))
        let pieces = (0..<count).map { index in
            Data(body[(body.count * index / count)..<(body.count * (index + 1) / count)])
        }
        let interval = count > 1 ? dribble.duration / (count - 1) : .zero
        sendPiece(0, of: pieces, every: interval)
        #endif
    }

    private func sendPiece(_ index: Int, of pieces: [Data], every interval: Duration) {
        guard index < pieces.count else { return sink.finished() }
        if !pieces[index].isEmpty { sink.loaded(pieces[index]) }
        guard index + 1 < pieces.count else { return sink.finished() }
        schedule(after: interval) { $0.sendPiece(index + 1, of: pieces, every: interval) }
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
