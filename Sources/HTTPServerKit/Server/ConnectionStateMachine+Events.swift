import HTTPCore
import HTTPHandlerKit

extension ConnectionStateMachine {
    /// Bytes arrived from the client at `now`; `drained` when the read took all the socket
    /// held (it filled less than the buffer).
    mutating func bytesRead(now: UInt64, drained: Bool) -> Action {
        lastProgress = now
        if drained { traffic.readSide.drain() }
        return deadline?.kind == .body ? .bodyProgressed : .none
    }

    /// A read found nothing to read (`EAGAIN`).
    mutating func readWouldBlock() {
        traffic.readSide.drain()
    }

    /// The loop reported the socket readable (or hung up): there may be bytes again.
    mutating func readinessReported() {
        if traffic.readSide == .drained { traffic.readSide = .open }
    }

    /// Bytes begin to go to the parser, from the read path.
    mutating func processingBegins() {
        traffic.isProcessing = true
    }

    /// The parser has taken what it can of those bytes.
    mutating func processingEnds() {
        traffic.isProcessing = false
    }

    /// Before parsing another request, with `pendingBytes` of output waiting: at
    /// ``outputHighWater`` or more, reading pauses (``canParse`` says no) until it drains.
    mutating func outputQueued(pendingBytes: Int) {
        guard pendingBytes >= Self.outputHighWater, case .reading(_, let closeAfterResponse) = state else { return }
        state = .reading(paused: true, closeAfterResponse: closeAfterResponse)
    }

    /// The output queue is empty again; returns whether reading resumes (it had paused), so
    /// that the shell parses and reads again.
    mutating func outputDrained() -> Bool {
        guard case .reading(true, let closeAfterResponse) = state else { return false }
        state = .reading(paused: false, closeAfterResponse: closeAfterResponse)
        return true
    }

    /// The parser completed a request head.
    mutating func headReceived(expectsContinue: Bool) -> Action {
        guard expectsContinue, case .reading = state else { return .none }
        return .writeContinue
    }

    /// The parser completed a whole request: it goes to the handler.
    mutating func requestReceived() -> Action {
        guard case .reading(_, let closeAfterResponse) = state else { return .none }
        sequence &+= 1
        state = .awaitingResponse(closeAfterResponse: closeAfterResponse)
        deadline = nil
        return .handRequest(sequence: sequence)
    }

    /// The parser refused the input.
    mutating func parseFailed(_ status: HTTPStatus, message: String) -> Action {
        refuse(status, message: message)
    }

    /// An answer begins; returns whether the connection stays open after it, as its head says.
    /// It closes when the request or the handler asks, after a shutdown began, or when the
    /// client has shut its side and sent nothing more; a close is kept for after the answer.
    /// Only a request being answered has a head to end: with none, the answer is to close.
    mutating func responseBegins(requestKeepAlive: Bool, handlerWantsClose: Bool, input: Input) -> Bool {
        let wanted = requestKeepAlive && !handlerWantsClose && !(peerClosed && input == .idle)
        switch state {
        case .awaitingResponse(let closeAfterResponse):
            let keepAlive = wanted && !closeAfterResponse
            state = .awaitingResponse(closeAfterResponse: !keepAlive)
            return keepAlive
        case .responding(let closeAfterResponse):
            let keepAlive = wanted && !closeAfterResponse
            state = .responding(closeAfterResponse: !keepAlive)
            return keepAlive
        case .reading, .finishing, .lingering, .closing, .closed:
            return false
        }
    }

    /// The answer's body goes out over time (a dribble).
    mutating func dribbleBegins() {
        guard case .awaitingResponse(let closeAfterResponse) = state else { return }
        state = .responding(closeAfterResponse: closeAfterResponse)
    }

    /// The whole answer is queued: back to reading, or finish (lingering only when the client
    /// may still be sending). An answer that came outside the read path (a deferred or delayed
    /// reply, a dribble's last piece) is queued on the loop, once, to go out when it is about
    /// to wait.
    mutating func responseQueued(input: Input) -> Action {
        switch state {
        case .awaitingResponse(let closeAfterResponse), .responding(let closeAfterResponse):
            if closeAfterResponse {
                state = .finishing(linger: input != .idle)
            } else {
                state = .reading(paused: false, closeAfterResponse: false)
            }
        case .reading, .finishing, .lingering, .closing, .closed:
            return .none
        }
        guard !traffic.isProcessing, !traffic.answerQueued else { return .none }
        traffic.answerQueued = true
        return .queueAnswer
    }

    /// The loop took the connection from its queued answers: send the answer, unless the
    /// connection has nothing more to send (it lingers, or the socket closed meanwhile).
    mutating func queuedAnswerTaken() -> Action {
        traffic.answerQueued = false
        switch state {
        case .reading, .awaitingResponse, .responding, .finishing:
            return .sendAnswer
        case .lingering, .closing, .closed:
            return .none
        }
    }

    /// The socket is being closed (by the machine's `close` or by the loop: a read error, an
    /// eviction, the end of the grace period); returns whether it was open until now, so
    /// that the caller releases it (deregisters, closes, frees the slot) once. No event does
    /// anything after.
    mutating func socketClosed() -> Bool {
        if case .closed = state { return false }
        state = .closed
        deadline = nil
        return true
    }

    /// The loop closes the connection to make room for a new client (``EvictionRule``);
    /// returns the status to send first, with `Connection: close`: `status` when a request is
    /// being received and nothing else is queued or being written (a response of ours would
    /// otherwise land inside another), else nil, for a close without a word. Either way the
    /// close is at once, with no lingering (RFC 9112 §9.6 would keep the place the new client
    /// needs); a connection closing already is left as it is, and nil returned.
    mutating func evictionRequested(status: HTTPStatus, outputEmpty: Bool) -> HTTPStatus? {
        switch state {
        case .closing, .closed:
            return nil
        case .reading, .awaitingResponse, .responding, .finishing, .lingering:
            let answer = isMidRequest(outputEmpty: outputEmpty) ? status : nil
            closeDecided()
            return answer
        }
    }

    /// The handler answered with a fault: a reset closes now; the others queue their bytes
    /// and then close without lingering.
    mutating func faultRequested(_ fault: HTTPFault) -> Action {
        guard case .awaitingResponse = state else { return .none }
        if case .connectionReset = fault {
            closeDecided()
            return .close(reset: true)
        }
        state = .finishing(linger: false)
        return .none
    }

    /// Everything queued was written at `now`: the next step of finishing, if finishing.
    mutating func writeFinished(now: UInt64) -> Action {
        traffic.writeBlocked = false
        guard case .finishing(let linger) = state else { return .none }
        if linger && !peerClosed {
            // RFC 9112 §9.6: after a refusal the client may still be sending; shut our side
            // and read until it closes, so that its unread bytes do not turn our close into a
            // reset that destroys the response before it is read.
            let until = now &+ timeouts.linger
            state = .lingering
            deadline = Deadline(kind: .linger, at: until)
            return .shutdownWrite(lingerUntil: until)
        }
        closeDecided()
        return .close(reset: false)
    }

    /// The socket took only part of the output.
    mutating func writeWouldBlock() {
        traffic.writeBlocked = true
    }

    /// Writing failed (the peer is gone).
    mutating func writeFailed() -> Action {
        switch state {
        case .closing, .closed:
            return .none
        case .reading, .awaitingResponse, .responding, .finishing, .lingering:
            closeDecided()
            return .close(reset: false)
        }
    }

    /// The client shut its side (read returned end of file).
    mutating func peerHalfClosed(input: Input, outputEmpty: Bool) -> Action {
        traffic.readSide = .shut
        switch state {
        case .reading:
            switch input {
            case .idle where outputEmpty:
                // Nothing more will come, and nothing waits to be sent.
                closeDecided()
                return .close(reset: false)
            case .buffered:
                // Pipelined requests wait: they are answered first.
                break
            case .idle, .head, .body:
                // What is queued is still sent; a request begun will not be completed.
                state = .finishing(linger: false)
            }
        case .lingering:
            closeDecided()
            return .close(reset: false)
        case .awaitingResponse, .responding, .finishing, .closing, .closed:
            break
        }
        return .none
    }

    /// The armed deadline may have come at `now`: a 408 for a request too slow to arrive,
    /// else a close. Before the deadline, nothing happens.
    mutating func deadlineReached(now: UInt64) -> Action {
        guard let armed = deadline, armed.at <= now else { return .none }
        deadline = nil
        if case .reading = state {
            switch armed.kind {
            case .header:
                return refuse(.requestTimeout, message: "Request head not received within the header timeout")
            case .body where !traffic.writeBlocked:
                return refuse(.requestTimeout, message: "Request body not received within the body timeout")
            case .body, .idle, .linger:
                break
            }
        }
        // Idle between requests, a client not reading its answer, or finishing/lingering too
        // long.
        closeDecided()
        return .close(reset: false)
    }

    /// After handling an event at `now`: the deadline the connection is under now. Reading a
    /// head or body keeps the deadline armed when it began (trickling does not extend it);
    /// idle restarts at each event.
    mutating func settle(now: UInt64, input: Input) -> DeadlineAction {
        let wanted: TimeoutList.Kind?
        switch state {
        case .reading:
            if traffic.writeBlocked {
                wanted = .idle
            } else {
                switch input {
                case .idle: wanted = .idle
                case .buffered, .head: wanted = .header
                case .body: wanted = .body
                }
            }
        case .awaitingResponse, .responding:
            wanted = traffic.writeBlocked ? .idle : nil
        case .finishing:
            wanted = .idle
        case .lingering:
            wanted = .linger
        case .closing, .closed:
            wanted = nil
        }
        guard let wanted else {
            guard deadline != nil else { return .keep }
            deadline = nil
            return .cancel
        }
        if let armed = deadline, armed.kind == wanted, wanted != .idle { return .keep }
        let at = now &+ timeouts.duration(of: wanted)
        deadline = Deadline(kind: wanted, at: at)
        return .arm(wanted, at: at)
    }

    /// A graceful shutdown began: close now when between requests, else after the answer.
    mutating func shutdownRequested(input: Input, outputEmpty: Bool) -> Action {
        switch state {
        case .reading(let paused, _):
            if isBetweenRequests(input: input, outputEmpty: outputEmpty) {
                closeDecided()
                return .close(reset: false)
            }
            state = .reading(paused: paused, closeAfterResponse: true)
        case .awaitingResponse:
            state = .awaitingResponse(closeAfterResponse: true)
        case .responding:
            state = .responding(closeAfterResponse: true)
        case .finishing, .lingering, .closing, .closed:
            // Ending already.
            break
        }
        return .none
    }

    private mutating func refuse(_ status: HTTPStatus, message: String) -> Action {
        guard case .reading = state else { return .none }
        state = .finishing(linger: true)
        return .refuse(status, message: message)
    }

    /// The machine decides to close: the shell closes the socket next, under no deadline.
    private mutating func closeDecided() {
        state = .closing
        deadline = nil
    }
}

extension ConnectionStateMachine.ReadSide {
    /// A read took all the socket held: nothing to read until it is reported again (unless
    /// the client shut its side, which stays so).
    mutating func drain() {
        if self == .open { self = .drained }
    }
}
