import HTTPCore
import HTTPHandlerKit

extension ConnectionStateMachine {
    /// Bytes arrived from the client at `now`; `drained` when the read took all the socket
    /// held (it filled less than the buffer).
    mutating func bytesRead(now: UInt64, drained: Bool) -> Action {
        lastProgress = now
        if drained { inputDrained = true }
        return deadline?.kind == .body ? .bodyProgressed : .none
    }

    /// A read found nothing to read (`EAGAIN`).
    mutating func readWouldBlock() -> Action {
        inputDrained = true
        return .none
    }

    /// The loop reported the socket readable (or hung up): there may be bytes again.
    mutating func readinessReported() -> Action {
        inputDrained = false
        return .none
    }

    /// Bytes begin to go to the parser, from the read path.
    mutating func processingBegins() -> Action {
        isProcessing = true
        return .none
    }

    /// The parser has taken what it can of those bytes.
    mutating func processingEnds() -> Action {
        isProcessing = false
        return .none
    }

    /// Before parsing another request: pauses when `pendingBytes` of output wait.
    mutating func outputQueued(pendingBytes: Int) -> Action {
        guard pendingBytes >= Self.outputHighWater, phase != .closed else { return .none }
        readingPaused = true
        return .pauseReading
    }

    /// The output queue is empty again.
    mutating func outputDrained() -> Action {
        guard readingPaused, phase != .closed else { return .none }
        readingPaused = false
        return .resumeReading
    }

    /// The parser completed a request head.
    mutating func headReceived(expectsContinue: Bool) -> Action {
        expectsContinue && phase == .reading ? .writeContinue : .none
    }

    /// The parser completed a whole request: it goes to the handler.
    mutating func requestReceived() -> Action {
        guard phase == .reading else { return .none }
        sequence &+= 1
        phase = .awaitingResponse
        deadline = nil
        return .handRequest(sequence: sequence)
    }

    /// The parser refused the input.
    mutating func parseFailed(_ status: HTTPStatus, message: String) -> Action {
        refuse(status, message: message)
    }

    /// An answer begins: its head says whether the connection stays open after it. It closes
    /// when the request or the handler asks, after a shutdown began, or when the client has
    /// shut its side and sent nothing more.
    mutating func responseBegins(requestKeepAlive: Bool, handlerWantsClose: Bool, input: Input) -> Action {
        guard phase != .closed else { return .none }
        var keepAlive = requestKeepAlive && !handlerWantsClose && !closeAfterResponse
        if peerClosed && input == .idle { keepAlive = false }
        if !keepAlive { closeAfterResponse = true }
        return .writeHead(keepAlive: keepAlive)
    }

    /// The answer's body goes out over time (a dribble).
    mutating func dribbleBegins() -> Action {
        if phase == .awaitingResponse { phase = .responding }
        return .none
    }

    /// The whole answer is queued: back to reading, or finish (lingering only when the client
    /// may still be sending). An answer that came outside the read path (a deferred or delayed
    /// reply, a dribble's last piece) is queued on the loop, once, to go out when it is about
    /// to wait.
    mutating func responseQueued(input: Input) -> Action {
        if phase == .awaitingResponse || phase == .responding {
            phase = closeAfterResponse ? .finishing(linger: input != .idle) : .reading
        }
        guard !isProcessing, !answerQueued, phase != .closed else { return .none }
        answerQueued = true
        return .queueAnswer
    }

    /// The loop took the connection from its queued answers: send the answer, unless the
    /// socket closed meanwhile.
    mutating func queuedAnswerTaken() -> Action {
        answerQueued = false
        return phase == .closed ? .none : .sendAnswer
    }

    /// The socket is being closed (by the machine's `close` or by the loop: a read error, an
    /// eviction, the end of the grace period): released once; no event does anything after.
    mutating func socketClosed() -> Action {
        guard !isClosed else { return .none }
        isClosed = true
        phase = .closed
        deadline = nil
        return .releaseSocket
    }

    /// The loop closes the connection to make room for a new client (``EvictionRule``): the
    /// `status` goes out first, with `Connection: close`, when a request is being received and
    /// nothing else is queued or being written (a response of ours would otherwise land inside
    /// another); else the close comes without a word. Either way the close is at once, with no
    /// lingering (RFC 9112 §9.6 would keep the place the new client needs).
    mutating func evictionRequested(status: HTTPStatus, outputEmpty: Bool) -> Action {
        guard phase != .closed else { return .none }
        let answer = isMidRequest(outputEmpty: outputEmpty) ? status : nil
        phase = .closed
        deadline = nil
        return .evict(answer: answer)
    }

    /// The handler answered with a fault: a reset closes now; the others queue their bytes
    /// and then close without lingering.
    mutating func faultRequested(_ fault: HTTPFault) -> Action {
        guard phase == .awaitingResponse else { return .none }
        if case .connectionReset = fault {
            phase = .closed
            return .close(reset: true)
        }
        phase = .finishing(linger: false)
        return .none
    }

    /// Everything queued was written at `now`: the next step of finishing, if finishing.
    mutating func writeFinished(now: UInt64) -> Action {
        writeBlocked = false
        guard case .finishing(let linger) = phase else { return .none }
        if linger && !peerClosed {
            // RFC 9112 §9.6: after a refusal the client may still be sending; shut our side
            // and read until it closes, so that its unread bytes do not turn our close into a
            // reset that destroys the response before it is read.
            phase = .closing
            let until = now &+ timeouts.linger
            deadline = (.linger, until)
            return .shutdownWrite(lingerUntil: until)
        }
        phase = .closed
        return .close(reset: false)
    }

    /// The socket took only part of the output.
    mutating func writeWouldBlock() -> Action {
        writeBlocked = true
        return .none
    }

    /// Writing failed (the peer is gone).
    mutating func writeFailed() -> Action {
        guard phase != .closed else { return .none }
        phase = .closed
        return .close(reset: false)
    }

    /// The client shut its side (read returned end of file).
    mutating func peerHalfClosed(input: Input, outputEmpty: Bool) -> Action {
        peerClosed = true
        switch phase {
        case .reading:
            switch input {
            case .idle:
                // Nothing more will come; whatever is queued is still sent.
                if outputEmpty {
                    phase = .closed
                    return .close(reset: false)
                }
                phase = .finishing(linger: false)
            case .buffered:
                // Pipelined requests wait: they are answered first.
                break
            case .head, .body:
                phase = .finishing(linger: false)
            }
        case .closing:
            phase = .closed
            return .close(reset: false)
        case .awaitingResponse, .responding, .finishing, .closed:
            break
        }
        return .none
    }

    /// The armed deadline may have come at `now`: a 408 for a request too slow to arrive,
    /// else a close. Before the deadline, nothing happens.
    mutating func deadlineReached(now: UInt64) -> Action {
        guard let armed = deadline, armed.at <= now, phase != .closed else { return .none }
        deadline = nil
        switch (armed.kind, phase) {
        case (.header, .reading):
            return refuse(.requestTimeout, message: "Request head not received within the header timeout")
        case (.body, .reading) where !writeBlocked:
            return refuse(.requestTimeout, message: "Request body not received within the body timeout")
        default:
            // Idle between requests, a client not reading its answer, or finishing/lingering
            // too long.
            phase = .closed
            return .close(reset: false)
        }
    }

    /// After handling an event at `now`: the deadline the connection is under now. Reading a
    /// head or body keeps the deadline armed when it began (trickling does not extend it);
    /// idle restarts at each event.
    mutating func settle(now: UInt64, input: Input) -> DeadlineAction {
        let wanted: TimeoutList.Kind?
        switch phase {
        case .reading:
            if writeBlocked {
                wanted = .idle
            } else {
                switch input {
                case .idle: wanted = .idle
                case .buffered, .head: wanted = .header
                case .body: wanted = .body
                }
            }
        case .awaitingResponse, .responding:
            wanted = writeBlocked ? .idle : nil
        case .finishing:
            wanted = .idle
        case .closing:
            wanted = .linger
        case .closed:
            wanted = nil
        }
        guard let wanted else {
            guard deadline != nil else { return .keep }
            deadline = nil
            return .cancel
        }
        if let armed = deadline, armed.kind == wanted, wanted != .idle { return .keep }
        let at = now &+ timeouts.duration(of: wanted)
        deadline = (wanted, at)
        return .arm(wanted, at: at)
    }

    /// A graceful shutdown began: close now when between requests, else after the answer.
    mutating func shutdownRequested(input: Input, outputEmpty: Bool) -> Action {
        closeAfterResponse = true
        guard isBetweenRequests(input: input, outputEmpty: outputEmpty) else { return .none }
        phase = .closed
        return .close(reset: false)
    }

    private mutating func refuse(_ status: HTTPStatus, message: String) -> Action {
        guard phase == .reading else { return .none }
        phase = .finishing(linger: true)
        return .refuse(status, message: message)
    }
}
