import HTTPCore
import HTTPHandlerKit

/// Where a reply that comes later goes: a connection (its slot and generation on its loop)
/// and the number of the request it answers.
struct ReplyAddress: Sendable {
    let loop: HTTPEventLoop
    let slot: Int
    let generation: UInt32
    let sequence: UInt64
}

extension Connection {
    /// Takes a later reply to request number `sequence`; stale replies are dropped.
    func deliver(_ reply: HTTPReply, sequence: UInt64) {
        guard machine.accepts(replyTo: sequence) else { return }
        answer(with: reply)
    }

    /// Carries out the handler's reply to the current request (its ``DeliveryPlan``): bytes,
    /// a timer, a fault, or a wait for a deferred reply.
    func answer(with reply: HTTPReply) {
        guard case .awaitingResponse = machine.state, let request = current else { return }
        switch reply.plan(for: DeliveryRequest(request.head), using: &loop.random) {
        case .prepared(let prepared, let form, let framing):
            outbound.append(form.storage, range: form.head)
            if !prepared.hasDate { outbound.append(loop.dates.line) }
            endHead(of: request, handlerWantsClose: prepared.wantsClose)
            if framing.sendsBody { outbound.append(form.storage, range: form.body) }
            finishResponse()
        case .response(let delivery):
            writeResponse(delivery, request: request)
            finishResponse()
        case .dribbled(let delivery, _, let pieces):
            startDribble(delivery, pieces: pieces, request: request)
        case .fault(let fault):
            perform(fault, request: request)
        case .wait(let delay, let later):
            let wait = delay.nanoseconds
            guard wait > 0 else { return answer(with: later) }
            let address = replyAddress
            _ = loop.timers.schedule(at: loop.clock.monotonicNanoseconds &+ wait) { [loop] in
                loop.deliver(later, to: address)
            }
        case .later(let deferred):
            let address = replyAddress
            deferred.whenComplete { reply in address.loop.deliver(reply, to: address) }
        }
    }

    private var replyAddress: ReplyAddress {
        ReplyAddress(loop: loop, slot: slot, generation: generation, sequence: sequence)
    }

    /// Tells the machine the answer to `request` begins, and ends its head (whose other fields
    /// are queued) as the machine decides: `Connection: close` unless the connection stays
    /// open (then `Connection: keep-alive` for HTTP/1.0, which closes without it), and the
    /// empty line.
    func endHead(of request: HTTPParsedHead, handlerWantsClose: Bool) {
        let keepAlive = machine.responseBegins(
            requestKeepAlive: request.keepAlive, handlerWantsClose: handlerWantsClose, input: input)
        if !keepAlive {
            outbound.append(Self.connectionClose)
        } else if request.head.version == .http10 {
            outbound.append(Self.connectionKeepAlive)
        } else {
            outbound.append(Self.crlf)
        }
    }

    static let connectionClose = Array("Connection: close\r\n\r\n".utf8)
    static let connectionKeepAlive = Array("Connection: keep-alive\r\n\r\n".utf8)
    static let crlf = Array("\r\n".utf8)
    static let lastChunk = Array("0\r\n\r\n".utf8)

    /// Writes the head of `delivery` (its fields, then the framing field), then its body as
    /// the framing says.
    private func writeResponse(_ delivery: ResponseDelivery, request: HTTPParsedHead) {
        let response = delivery.response
        var notes = ResponseHeadWriter.Notes()
        outbound.appendOwned { buffer in
            notes = ResponseHeadWriter.writeFixedHead(
                status: response.status, headers: response.headers, gzip: delivery.gzip, vary: delivery.offersGzip,
                into: buffer)
            delivery.framing.writeField(into: buffer)
        }
        if !notes.hasDate { outbound.append(loop.dates.line) }
        endHead(of: request, handlerWantsClose: notes.wantsClose)
        guard delivery.framing.sendsBody else { return }
        let body = delivery.body
        guard delivery.framing.isChunked else { return outbound.append(body) }
        if !body.isEmpty {
            outbound.appendOwned { buffer in
                buffer.appendHex(body.count)
                buffer.append("\r\n")
                buffer.append(body)
                buffer.append("\r\n")
            }
        }
        outbound.append(Self.lastChunk)
    }

    /// The answer is fully queued: go back to reading, or finish the connection.
    func finishResponse() {
        current = nil
        perform(machine.responseQueued(input: input))
    }

    /// After an answer that came outside the read path: send it, then take any pipelined
    /// request already buffered and read what arrived meanwhile.
    func resumeAfterAsyncAnswer() {
        if case .reading = machine.state {
            onReadable()
        } else {
            flushOutput()
            if !isClosed { settleDeadline() }
        }
    }

    /// Queues the refusal of the request being read: `status` and a one-line text body.
    func queueRefusal(_ status: HTTPStatus, message: String) {
        let body = Array((message + "\n").utf8)
        outbound.appendOwned { buffer in
            buffer.appendStatusLine(status)
            buffer.append(loop.dates.line)
            buffer.append("Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ")
            buffer.appendDecimal(body.count)
            buffer.append("\r\n\r\n")
            buffer.append(body)
        }
        current = nil
        self.body = []
    }
}
