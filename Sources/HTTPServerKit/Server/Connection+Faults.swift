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
                    let kept = keepingBytes < response.body.count ? max(0, keepingBytes) : response.body.count / 2
                    buffer.append(Array(response.body.prefix(kept)))
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

    /// Sends the head now and the body in `dribble.chunkCount` pieces spread over its duration.
    func startDribble(_ response: HTTPResponse, dribble: HTTPDribble, request: HTTPParsedHead) {
        let sendsBody = !response.status.forbidsBody && request.head.method != .head && !response.body.isEmpty
        let chunked = request.head.version == .http11
        var notes = ResponseHeadWriter.Notes()
        outbound.appendOwned { buffer in
            notes = ResponseHeadWriter.writeFixedHead(
                status: response.status, headers: response.headers, gzip: false, vary: false, into: buffer)
            if !response.status.forbidsBody {
                if chunked {
                    buffer.append("Transfer-Encoding: chunked\r\n")
                } else {
                    buffer.append("Content-Length: ")
                    buffer.appendDecimal(response.body.count)
                    buffer.append("\r\n")
                }
            }
            if !notes.hasDate { buffer.append(loop.dates.line) }
        }
        endHead(of: request, handlerWantsClose: notes.wantsClose)
        guard sendsBody else {
            if !response.status.forbidsBody && chunked && request.head.method != .head {
                outbound.append(Self.lastChunk)
            }
            finishResponse()
            return
        }
        machine.dribbleBegins()
        let body = response.body
        let count = max(1, min(dribble.chunkCount, body.count))
        let interval = dribble.duration.nanoseconds / UInt64(count)
        let start = loop.clock.monotonicNanoseconds
        let sequence = self.sequence
        for index in 0..<count {
            let lower = body.count * index / count
            let upper = body.count * (index + 1) / count
            let piece = Array(body[lower..<upper])
            let isLast = index == count - 1
            let send = { [self] in
                guard !isClosed, machine.isResponding(to: sequence) else { return }
                if chunked {
                    outbound.appendOwned { buffer in
                        buffer.appendHex(piece.count)
                        buffer.append("\r\n")
                        buffer.append(piece)
                        buffer.append("\r\n")
                    }
                } else {
                    outbound.append(piece)
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
                // The last piece goes at the full duration so the whole body takes that long.
                let offset = isLast ? dribble.duration.nanoseconds : interval &* UInt64(index)
                _ = loop.timers.schedule(at: start &+ offset, send)
            }
        }
    }
}
