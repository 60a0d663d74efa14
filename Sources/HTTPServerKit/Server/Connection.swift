import HTTPCore
import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection, confined to its event loop: the shell around a
/// ``ConnectionStateMachine``. It reads the socket, runs the parser, turns replies into
/// bytes and writes them; the machine decides what happens next (pause, hand over, refuse,
/// linger, close) and which deadline holds, and the shell performs its actions.
///
/// Pipelined requests are parsed one at a time: the next is looked at only once the current
/// one is answered, so answers go out in order and unanswered input waits in `inbound`.
final class Connection {
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
    var progressLinks = ProgressList.Links()

    var machine: ConnectionStateMachine
    var parser: HTTPRequestParser
    var current: HTTPParsedHead?
    var body: [UInt8] = []
    let inbound = ByteBuffer()
    var outbound = OutboundQueue()
    /// The TLS session on an HTTPS server's connection; nil on a plain one, where every read
    /// and write goes straight to the socket. An HTTPS server never makes a connection without
    /// one (``AcceptDecision/admission(servesTLS:layerMade:)``).
    let tls: (any ConnectionLayer)?

    init(
        loop: HTTPEventLoop, descriptor: Int32, slot: Int, generation: UInt32, remoteAddress: HTTPSocketAddress,
        tls: (any ConnectionLayer)?
    ) {
        self.loop = loop
        self.descriptor = descriptor
        self.slot = slot
        self.generation = generation
        self.remoteAddress = remoteAddress
        machine = ConnectionStateMachine(timeouts: loop.connectionTimeouts, now: loop.now)
        parser = HTTPRequestParser(limits: loop.configuration.limits)
        self.tls = tls
    }

    // Read-only views of the machine's state, for the loop (readiness, eviction, replies).
    var writeBlocked: Bool { machine.writeBlocked }
    var sequence: UInt64 { machine.sequence }
    var lastProgress: UInt64 { machine.lastProgress }
    /// The socket is closed (the machine's `socketClosed`, from the loop's `closeConnection`).
    var isClosed: Bool { machine.isClosed }

    /// What the parser and the input buffer hold of the next request.
    var input: ConnectionStateMachine.Input {
        if parser.isReadingHead { return .head }
        if !parser.isIdle { return .body }
        if inbound.readableCount > 0 { return .buffered }
        // A handshake under way is the start of a request head: bounded by the header timeout.
        if tls != nil, isHandshaking { return .head }
        return .idle
    }

    /// Whether the connection's layer is still in its handshake. Out of line, so that `input`,
    /// asked several times a request, only tests for a layer on a plain connection (inline, the
    /// layer's call makes every plain request 36 instructions dearer: cachegrind, ServerBench).
    @inline(never)
    private var isHandshaking: Bool {
        guard let tls else { return false }
        return !tls.isEstablished
    }

    /// Performs one of the machine's actions. `none`, what most events return, costs one test
    /// where the event happened and no call, so returning actions adds nothing per request.
    @inline(__always)
    func perform(_ action: ConnectionStateMachine.Action) {
        if case .none = action { return }
        performAction(action)
    }

    private func performAction(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .none:
            break  // `perform` returns before the call
        case .writeContinue:
            outbound.append(Self.continueResponse)
        case .handRequest:
            loop.setDeadline(self, nil)
            handToHandler()
        case .refuse(let status, let message):
            queueRefusal(status, message: message)
        case .shutdownWrite(let lingerUntil):
            tls?.close()
            Socket.shutdownWrite(descriptor)
            inbound.clear(releasingAbove: 0)
            loop.setDeadline(self, .linger, at: lingerUntil)
            drainClosing()
        case .close(let reset):
            loop.closeConnection(self, reset: reset)
        case .queueAnswer:
            loop.queuedAnswers.append(self)
        case .sendAnswer:
            resumeAfterAsyncAnswer()
        case .bodyProgressed:
            loop.bodyProgressed(self)
        }
    }

    /// Puts the connection under the deadline the machine wants now.
    func settleDeadline() {
        switch machine.settle(now: loop.now, input: input) {
        case .keep: break
        case .cancel: loop.setDeadline(self, nil)
        case .arm(let kind, let at): loop.setDeadline(self, kind, at: at)
        }
    }

    /// The socket is readable (or hung up): read what there is and act on it.
    func onReadable() {
        if case .lingering = machine.state {
            drainClosing()
            return
        }
        var again = true
        while again && !isClosed {
            again = false
            if machine.canParse, inbound.readableCount > 0 { processInbound() }
            readAvailable()
            guard !isClosed else { return }
            flushOutput()
            if !isClosed, outbound.isEmpty, machine.outputDrained() { again = true }
        }
        if !isClosed { settleDeadline() }
    }

    /// The socket became writable after a short write.
    func onWritable() {
        flushOutput()
        guard !isClosed else { return }
        if outbound.isEmpty, machine.outputDrained() {
            onReadable()
        } else {
            settleDeadline()
        }
    }

    /// Whether the connection reads from its socket now (draining while it lingers aside):
    /// never after the peer closed its side; while it can parse; else until the input buffer
    /// holds `inboundHighWater` bytes. The loop's level-triggered poller waits on exactly this.
    var readsInput: Bool {
        !machine.peerClosed && (machine.canParse || inbound.readableCount < Self.inboundHighWater)
    }

    private func readAvailable() {
        while !isClosed && readsInput && !machine.inputDrained {
            let parsing = machine.canParse
            let intoInbound = !parsing || inbound.readableCount > 0
            let target = intoInbound ? inbound.writableBytes(minimum: 16 * 1024) : loop.readBuffer
            let count =
                if let tls { tls.read(target.baseAddress, target.count) } else {
                    Descriptor.read(descriptor, target.baseAddress, target.count)
                }
            if count > 0 {
                // Edge-triggered: a short read drained the socket; new data raises a new edge.
                // A TLS read ends at its record, which says nothing of the socket: read on.
                perform(machine.bytesRead(now: loop.now, drained: count < target.count && tls == nil))
                if intoInbound {
                    inbound.didWrite(count)
                    if parsing { processInbound() }
                } else {
                    let bytes = UnsafeRawBufferPointer(rebasing: target[0..<count])
                    let used = process(bytes)
                    if used < count && !isClosed { inbound.append(UnsafeRawBufferPointer(rebasing: bytes[used...])) }
                }
                if machine.inputDrained { return }
            } else if count == 0 {
                perform(machine.peerHalfClosed(input: input, outputEmpty: outbound.isEmpty))
                return
            } else {
                let error = errno
                if error == EINTR { continue }
                if error != EAGAIN && error != EWOULDBLOCK { loop.closeConnection(self, reset: false) }
                machine.readWouldBlock()
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
        machine.processingBegins()
        defer { machine.processingEnds() }
        var offset = 0
        while !isClosed {
            // Reading, and not paused by the output now queued.
            machine.outputQueued(pendingBytes: outbound.pendingBytes)
            guard machine.canParse else { return offset }
            let start = offset
            let step: HTTPRequestParser.Step
            do {
                step = try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            } catch {
                perform(machine.parseFailed(error.status, message: error.description))
                return bytes.count
            }
            offset += step.consumed
            switch step.event {
            case nil:
                return offset
            case .head(let parsed):
                current = parsed
                perform(machine.headReceived(expectsContinue: parsed.expectsContinue))
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
                guard current != nil else { return offset }
                perform(machine.requestReceived())
            }
        }
        return offset
    }

    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private func handToHandler() {
        guard let parsed = current else { return }
        var request = HTTPServerRequest(head: parsed.head, body: body, remoteAddress: remoteAddress)
        request.eventLoop = loop
        request.isSecure = tls != nil
        body = []
        answer(with: loop.handler.reply(to: request))
    }

    /// Sends what is queued; when done, moves on to closing if that is next.
    func flushOutput() {
        if !outbound.isEmpty {
            let result =
                if let tls { outbound.flush(through: tls, scratch: loop.tlsWriteBuffer) } else {
                    outbound.flush(to: descriptor, iovecs: loop.iovecs, iovecCapacity: loop.iovecCapacity)
                }
            switch result {
            case .done:
                break
            case .wouldBlock:
                machine.writeWouldBlock()
                return
            case .failed:
                perform(machine.writeFailed())
                return
            }
        }
        perform(machine.writeFinished(now: loop.now))
    }

    /// Lingering: reads and drops what the client still sends until it closes.
    private func drainClosing() {
        while !isClosed {
            let count = Descriptor.read(descriptor, loop.readBuffer.baseAddress, loop.readBuffer.count)
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            if count == 0 {
                perform(machine.peerHalfClosed(input: .idle, outputEmpty: true))
            } else {
                loop.closeConnection(self, reset: false)
            }
        }
    }

    /// The loop found the connection's deadline passed.
    func deadlineReached() {
        let action = machine.deadlineReached(now: loop.now)
        perform(action)
        if case .refuse = action { flushOutput() }
        if !isClosed { settleDeadline() }
    }

    /// Whether closing now loses nothing: no request begun, none being answered, nothing
    /// queued either way (a keep-alive connection waiting, or one that never sent a byte).
    var isBetweenRequests: Bool {
        machine.isBetweenRequests(input: input, outputEmpty: outbound.isEmpty)
    }

    /// Whether the client has sent bytes the loop has not read yet (a request on its way in a
    /// connection accepted this round, say): such a connection is not idle, even between
    /// requests. At the descriptor limit `accept` fails even when nobody waits, and closing it
    /// would lose that request for nothing.
    var hasUnreadInput: Bool { Socket.hasUnreadInput(descriptor) }

    /// Whether this connection is in the middle of receiving a request, with nothing being
    /// processed or answered: it may make room at the limit.
    var isMidRequest: Bool { machine.isMidRequest(outputEmpty: outbound.isEmpty) }

    static let timeoutEviction = Array(
        "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)
    static let overloadEviction = Array(
        "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)

    /// Closes the connection to make room for a new client (``EvictionRule``): `status` (408 or
    /// 503) first if the machine says one may be written and the socket takes it at once, then
    /// the close, at once (the place is needed now). What the client had sent and the loop had
    /// not read is read and dropped first (one read at most), so that the close is a FIN after
    /// the answer, not an RST that could destroy it before the client reads it.
    func evict(answering status: HTTPStatus, handingOverItsPlace: Bool) {
        if let answer = machine.evictionRequested(status: status, outputEmpty: outbound.isEmpty) {
            let bytes = answer == .requestTimeout ? Self.timeoutEviction : Self.overloadEviction
            if let tls {
                _ = bytes.withUnsafeBytes { tls.write($0.baseAddress, $0.count) }
            } else {
                _ = bytes.withUnsafeBytes { Socket.sendOnce(descriptor, $0) }
            }
            _ = Descriptor.read(descriptor, loop.readBuffer.baseAddress, loop.readBuffer.count)
        }
        loop.closeConnection(self, reset: false, releasingItsPlace: !handingOverItsPlace)
    }

    /// Graceful shutdown: close now when between requests, else after the current answer.
    func shutdownRequested() {
        perform(machine.shutdownRequested(input: input, outputEmpty: outbound.isEmpty))
    }
}
