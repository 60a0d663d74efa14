import HTTPCore
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection, confined to its event loop: reads and parses requests, hands
/// each complete one to the handler, and writes the answers in request order.
///
/// Pipelined requests are parsed one at a time: the next is looked at only once the current
/// one is answered, so answers go out in order and unanswered input waits in `inbound`.
final class Connection {
    enum Phase {
        /// Reading (or waiting for) a request.
        case reading
        /// The handler has the request and has not answered yet.
        case awaitingResponse
        /// An answer is being sent over time (dribble).
        case responding
        /// No more requests: flush what is queued, then close (lingering when `linger`).
        case finishing(linger: Bool)
        /// Our side is shut for writing; draining the client until it closes or time runs out.
        case closing
    }

    /// Stop parsing further pipelined requests while this much output is queued.
    static let outputHighWater = 256 * 1024
    /// Stop reading while this much unparsed input waits for an answer.
    static let inboundHighWater = 128 * 1024

    // The loop outlives its connections: it closes them all before it stops, and drops them
    // from `connections` when they close.
    unowned(unsafe) let loop: HTTPEventLoop
    let descriptor: Int32
    let slot: Int
    let generation: UInt32
    let remoteAddress: HTTPSocketAddress
    var timeoutLinks = TimeoutList.Links()
    /// When bytes last arrived (the loop's clock), to tell a stalled request from a slow one.
    var lastProgress: UInt64

    var parser: HTTPRequestParser
    var phase = Phase.reading
    var current: HTTPParsedHead?
    var body: [UInt8] = []
    var sequence: UInt64 = 0
    let inbound = ByteBuffer()
    var outbound = OutboundQueue()
    var writeBlocked = false
    var outputPaused = false
    var peerClosed = false
    var closeAfterResponse = false
    var isClosed = false
    var isProcessing = false

    init(loop: HTTPEventLoop, descriptor: Int32, slot: Int, generation: UInt32, remoteAddress: HTTPSocketAddress) {
        self.loop = loop
        self.descriptor = descriptor
        self.slot = slot
        self.generation = generation
        self.remoteAddress = remoteAddress
        lastProgress = loop.now
        parser = HTTPRequestParser(limits: loop.configuration.limits)
    }

    /// The socket is readable (or hung up): read what there is and act on it.
    func onReadable() {
        if case .closing = phase {
            drainClosing()
            return
        }
        var again = true
        while again && !isClosed {
            again = false
            if case .reading = phase, inbound.readableCount > 0, !outputPaused { processInbound() }
            readAvailable()
            guard !isClosed else { return }
            flushOutput()
            if outputPaused && outbound.isEmpty && !isClosed {
                outputPaused = false
                again = true
            }
        }
        if !isClosed { updateTimeout() }
    }

    /// The socket became writable after a short write.
    func onWritable() {
        flushOutput()
        guard !isClosed else { return }
        if outputPaused && outbound.isEmpty {
            outputPaused = false
            onReadable()
        } else {
            updateTimeout()
        }
    }

    private func readAvailable() {
        while !isClosed && !peerClosed {
            let parsing: Bool
            if case .reading = phase { parsing = !outputPaused } else { parsing = false }
            if !parsing && inbound.readableCount >= Self.inboundHighWater { return }
            let intoInbound = !parsing || inbound.readableCount > 0
            let target = intoInbound ? inbound.writableBytes(minimum: 16 * 1024) : loop.readBuffer
            let count = read(descriptor, target.baseAddress, target.count)
            if count > 0 {
                lastProgress = loop.now
                if intoInbound {
                    inbound.didWrite(count)
                    if parsing { processInbound() }
                } else {
                    let bytes = UnsafeRawBufferPointer(rebasing: target[0..<count])
                    let used = process(bytes)
                    if used < count && !isClosed { inbound.append(UnsafeRawBufferPointer(rebasing: bytes[used...])) }
                }
                // Edge-triggered: a short read drained the socket; new data raises a new edge.
                if count < target.count { return }
            } else if count == 0 {
                peerClosed = true
                peerDidClose()
                return
            } else {
                let error = errno
                if error == EINTR { continue }
                if error != EAGAIN && error != EWOULDBLOCK { loop.closeConnection(self, reset: false) }
                return
            }
        }
    }

    private func processInbound() {
        let used = process(inbound.readableBytes)
        if !isClosed { inbound.consume(used) }
    }

    /// Feeds bytes to the parser while requests can be taken; returns how many were used.
    private func process(_ bytes: UnsafeRawBufferPointer) -> Int {
        isProcessing = true
        defer { isProcessing = false }
        var offset = 0
        while !isClosed {
            guard case .reading = phase else { return offset }
            if outbound.pendingBytes >= Self.outputHighWater {
                outputPaused = true
                return offset
            }
            let start = offset
            let step: HTTPRequestParser.Step
            do {
                step = try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            } catch {
                refuse(error.status, message: error.description)
                return bytes.count
            }
            offset += step.consumed
            switch step.event {
            case nil:
                return offset
            case .head(let parsed):
                current = parsed
                if parsed.expectsContinue { outbound.append(Self.continueResponse) }
            case .body(let range):
                // Room for the declared length only once a body arrives at speed: a few bytes of
                // a large declared length (thousands of trickling clients) take a few bytes.
                if body.isEmpty, range.count >= 4096, case .length(let length)? = current?.bodyFraming,
                    length > range.count
                {
                    body.reserveCapacity(min(length, 1 << 20))
                }
                body.append(
                    contentsOf: UnsafeRawBufferPointer(
                        rebasing: bytes[(start + range.lowerBound)..<(start + range.upperBound)]))
            case .end:
                dispatch()
            }
        }
        return offset
    }

    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private func dispatch() {
        guard let parsed = current else { return }
        sequence &+= 1
        phase = .awaitingResponse
        loop.setTimeout(self, nil)
        let request = HTTPServerRequest(head: parsed.head, body: body, remoteAddress: remoteAddress)
        body = []
        answer(with: loop.handler.reply(to: request))
    }

    private func peerDidClose() {
        switch phase {
        case .reading:
            // Nothing more will come; whatever is queued is still sent.
            if parser.isIdle && inbound.readableCount == 0 {
                if outbound.isEmpty {
                    loop.closeConnection(self, reset: false)
                } else {
                    phase = .finishing(linger: false)
                }
            } else if !parser.isIdle {
                phase = .finishing(linger: false)
            }
        case .awaitingResponse, .responding, .finishing:
            break
        case .closing:
            loop.closeConnection(self, reset: false)
        }
    }

    /// Sends what is queued; when done, moves on to closing if that is next.
    func flushOutput() {
        if !outbound.isEmpty {
            switch outbound.flush(to: descriptor, iovecs: loop.iovecs, iovecCapacity: loop.iovecCapacity) {
            case .done:
                writeBlocked = false
            case .wouldBlock:
                writeBlocked = true
                return
            case .failed:
                loop.closeConnection(self, reset: false)
                return
            }
        }
        if case .finishing(let linger) = phase {
            if linger && !peerClosed {
                startLingeringClose()
            } else {
                loop.closeConnection(self, reset: false)
            }
        }
    }

    /// RFC 9112 §9.6: after a refusal the client may still be sending; shut our side and
    /// read until it closes, so its unread bytes do not turn our close into a reset that
    /// destroys the response before it is read.
    private func startLingeringClose() {
        shutdown(descriptor, Int32(SHUT_WR))
        phase = .closing
        inbound.clear(releasingAbove: 0)
        loop.setTimeout(self, .linger)
        drainClosing()
    }

    private func drainClosing() {
        while !isClosed {
            let count = read(descriptor, loop.readBuffer.baseAddress, loop.readBuffer.count)
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            loop.closeConnection(self, reset: false)
        }
    }

    func updateTimeout() {
        let kind: TimeoutList.Kind?
        switch phase {
        case .reading:
            if writeBlocked {
                kind = .idle
            } else if parser.isReadingHead || (parser.isIdle && inbound.readableCount > 0) {
                kind = .header
            } else {
                kind = parser.isIdle ? .idle : .body
            }
        case .awaitingResponse, .responding:
            kind = writeBlocked ? .idle : nil
        case .finishing:
            kind = .idle
        case .closing:
            kind = .linger
        }
        loop.setTimeout(self, kind)
    }

    func timedOut(_ kind: TimeoutList.Kind) {
        switch (kind, phase) {
        case (_, .closing), (_, .finishing):
            loop.closeConnection(self, reset: false)
        case (.header, .reading):
            refuse(.requestTimeout, message: "Request head not received within the header timeout")
            flushOutput()
        case (.idle, .reading) where !writeBlocked && parser.isIdle && inbound.readableCount == 0:
            loop.closeConnection(self, reset: false)
        case (.body, .reading) where !writeBlocked:
            refuse(.requestTimeout, message: "Request body not received within the body timeout")
            flushOutput()
        default:
            loop.closeConnection(self, reset: false)
        }
        if !isClosed { updateTimeout() }
    }

    /// Whether closing now loses nothing: no request begun, none being answered, nothing
    /// queued either way (a keep-alive connection waiting, or one that never sent a byte).
    var isBetweenRequests: Bool {
        guard case .reading = phase else { return false }
        return !writeBlocked && parser.isIdle && inbound.readableCount == 0 && outbound.isEmpty
    }

    /// Whether the client has sent bytes the loop has not read yet (a request on its way in a
    /// connection accepted this round, say): such a connection is not idle, even between
    /// requests. At the descriptor limit `accept` fails even when nobody waits, and closing it
    /// would lose that request for nothing.
    var hasUnreadInput: Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// Whether this connection is in the middle of receiving a request and has sent nothing
    /// for at least `age` nanoseconds: a stalled reader that may make room at the limit.
    func isStalledMidRequest(now: UInt64, age: UInt64) -> Bool {
        guard case .reading = phase, !writeBlocked, outbound.isEmpty else { return false }
        guard timeoutLinks.list == .header || timeoutLinks.list == .body else { return false }
        return now &- lastProgress >= age
    }

    static let evictionResponse = Array(
        "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)

    /// Closes a stalled reader to make room for a new client: a 408 if the socket takes it at
    /// once, then the close (no lingering, so the place is free now).
    func evict(handingOverItsPlace: Bool) {
        _ = Self.evictionResponse.withUnsafeBytes { Socket.sendOnce(descriptor, $0) }
        loop.closeConnection(self, reset: false, releasingItsPlace: !handingOverItsPlace)
    }

    /// Graceful shutdown: close now when between requests, else after the current answer.
    func shutdownRequested() {
        closeAfterResponse = true
        if isBetweenRequests {
            loop.closeConnection(self, reset: false)
        }
    }
}
