import HTTPCore
import HTTPHandlerKit

extension Connection {
    /// Breaks the connection as the fault says.
    func perform(_ fault: HTTPFault, request: HTTPParsedHead) {
        current = nil
        let action = machine.faultRequested(fault)
        guard action == .none else { return perform(action) }
        switch fault {
        case .connectionReset:
            break  // closed above: the machine answered `close(reset: true)`
        case .emptyResponse:
            closeAfterQueued()
        case .randomDataThenClose(let count):
            var bytes = [UInt8](repeating: 0, count: max(1, count))
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &loop.random) }
            outbound.append(bytes)
            closeAfterQueued()
        case .malformedResponseChunk(let status, let headers):
            outbound.appendOwned { buffer in
                _ = ResponseHeadWriter.writeFixedHead(
                    status: status, headers: headers, gzip: false, vary: false, into: buffer)
                buffer.append("Transfer-Encoding: chunked\r\n")
                buffer.append(loop.dates.line)
                buffer.append("\r\n")
                // One good chunk, then a size line that is not hexadecimal, then the end.
                buffer.append("4\r\n{\"a\"\r\n")
                buffer.append("zz-not-a-chunk-size\r\n:1}\r\n")
            }
            closeAfterQueued()
        case .truncatedBody(let response, let keepingBytes):
            outbound.appendOwned { buffer in
                _ = ResponseHeadWriter.writeFixedHead(
                    status: response.status, headers: response.headers, gzip: false, vary: false, into: buffer)
                buffer.append("Content-Length: ")
                buffer.appendDecimal(response.body.count)
                buffer.append("\r\n")
                buffer.append(loop.dates.line)
                buffer.append("Connection: close\r\n\r\n")
                if request.head.method != .head {
                    buffer.append(Array(response.body.prefix(HTTPFault.keptBytes(of: response, keeping: keepingBytes))))
                }
            }
            closeAfterQueued()
        }
    }

    /// Sends what is queued, then closes without lingering (the client gets a plain FIN).
    private func closeAfterQueued() {
        if !machine.isProcessing {
            flushOutput()
            if !isClosed { settleDeadline() }
        } else if outbound.isEmpty {
            perform(machine.writeFinished(now: loop.now))
        }
    }

    /// Sends the head now and the body in the plan's pieces, each at its time.
    func startDribble(
        _ delivery: ResponseDelivery, pieces: [(bytes: Range<Int>, after: Duration)], request: HTTPParsedHead
    ) {
        let response = delivery.response
        let framing = delivery.framing
        var notes = ResponseHeadWriter.Notes()
        outbound.appendOwned { buffer in
            notes = ResponseHeadWriter.writeFixedHead(
                status: response.status, headers: response.headers, gzip: false, vary: false, into: buffer)
            framing.writeField(into: buffer)
            if !notes.hasDate { buffer.append(loop.dates.line) }
        }
        endHead(of: request, handlerWantsClose: notes.wantsClose)
        let body = delivery.body
        guard !body.isEmpty else {
            if framing.sendsBody && framing.isChunked { outbound.append(Self.lastChunk) }
            finishResponse()
            return
        }
        machine.dribbleBegins()
        let chunked = framing.isChunked
        let start = loop.clock.monotonicNanoseconds
        let sequence = self.sequence
        for (index, piece) in pieces.enumerated() {
            let bytes = Array(body[piece.bytes])
            let isLast = index == pieces.count - 1
            let send = { [self] in
                guard !isClosed, machine.isResponding(to: sequence) else { return }
                if chunked {
                    outbound.appendOwned { buffer in
                        buffer.appendHex(bytes.count)
                        buffer.append("\r\n")
                        buffer.append(bytes)
                        buffer.append("\r\n")
                    }
                } else {
                    outbound.append(bytes)
                }
                if isLast {
                    if chunked { outbound.append(Self.lastChunk) }
                    finishResponse()
                } else {
                    flushOutput()
                }
            }
            if index == 0 {
                send()
            } else {
                _ = loop.timers.schedule(at: start &+ piece.after.nanoseconds, send)
            }
        }
    }
}
