import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPEventLoop {
    static let overloadResponse = Array(
        "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)

    func acceptConnections() {
        for _ in 0..<64 {
            var address = sockaddr_storage()
            let descriptor = Socket.acceptConnection(listener, peer: &address)
            if descriptor < 0 {
                let error = errno
                if error == EINTR || error == ECONNABORTED { continue }
                if error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM {
                    switch acceptAtDescriptorLimit() {
                    case .accepted(let descriptor, let address): take(descriptor, address: address)
                    case .again: break
                    case .stop: return
                    }
                    continue
                }
                return
            }
            take(descriptor, address: address)
        }
    }

    /// Makes an accepted socket a connection, or refuses it at the connection limit (a 503 on
    /// a plain listener, a reset on an HTTPS one: ``AcceptDecision``).
    private func take(_ descriptor: Int32, address: sockaddr_storage) {
        // At the limit, the place of a closed idle connection passes straight to this one
        // (another loop cannot take it in between).
        guard phase == .running,
            lifecycle.acquireConnection() || makeRoom(handingOverItsPlace: true, clientWaiting: true)
        else {
            refuse(descriptor, AcceptDecision.refusal(servesTLS: tlsContext != nil))
            return
        }
        Socket.prepareConnection(descriptor)
        let layer = tlsContext?.layer(over: descriptor)
        let admission = AcceptDecision.admission(servesTLS: tlsContext != nil, layerMade: layer != nil)
        guard admission != .reset else {
            refuse(descriptor, admission)
            lifecycle.releaseConnection()
            return
        }
        let slot = freeSlots.popLast() ?? appendSlot()
        nextGeneration &+= 1
        // Generation 0 marks the descriptors of loop extensions in poll tokens.
        if nextGeneration == 0 { nextGeneration = 1 }
        let connection = Connection(
            loop: self, descriptor: descriptor, slot: slot, generation: nextGeneration,
            remoteAddress: HTTPSocketAddress(storage: address), tls: layer)
        do {
            try poller.addConnection(descriptor, token: UInt64(nextGeneration) << 32 | UInt64(slot))
        } catch {
            poller.remove(descriptor)
            Descriptor.close(descriptor)
            freeSlots.append(slot)
            lifecycle.releaseConnection()
            return
        }
        connections[slot] = connection
        connectionCount += 1
        connection.settleDeadline()
    }

    /// What came of accepting at the descriptor limit.
    enum LimitedAccept {
        /// A waiting client, with room made for it.
        case accepted(Int32, sockaddr_storage)
        /// A waiting client was refused (a 503, or a reset), or a descriptor freed: accept again.
        case again
        /// Nobody waits, or nothing more can be done for now.
        case stop
    }

    /// At the descriptor limit, `accept` fails while clients wait in the backlog, and also when
    /// none does; the level-triggered listener stays readable, so left alone the loop would
    /// spin. Gives up the spare descriptor to accept one waiting client, if there is one (so
    /// nothing is closed for a client that is not there); makes room for it as at the
    /// connection limit (``makeRoom(handingOverItsPlace:clientWaiting:)``), and the closed
    /// connection's descriptor becomes the spare again; with no room to make, refuses it as at
    /// the connection limit (a 503, or a reset on an HTTPS listener). When that
    /// cannot work (no spare, or another thread took the freed slot), stops watching the
    /// listener for 100 ms instead.
    private func acceptAtDescriptorLimit() -> LimitedAccept {
        guard spareDescriptor >= 0 else {
            // Closing an idle or stalled connection gives back a descriptor for the next accept;
            // nobody is known to wait, so no body that moved lately is closed for it.
            if makeRoom(handingOverItsPlace: false, clientWaiting: false) { return .again }
            pauseAccepting()
            return .stop
        }
        Descriptor.close(spareDescriptor)
        var address = sockaddr_storage()
        let descriptor = Socket.acceptConnection(listener, peer: &address)
        let acceptError = errno
        if descriptor >= 0 && makeRoom(handingOverItsPlace: false, clientWaiting: true) {
            spareDescriptor = Descriptor.openSpare()
            return .accepted(descriptor, address)
        }
        if descriptor >= 0 { refuse(descriptor, AcceptDecision.refusal(servesTLS: tlsContext != nil)) }
        spareDescriptor = Descriptor.openSpare()
        if descriptor >= 0 && spareDescriptor >= 0 { return .again }
        if descriptor < 0 && spareDescriptor >= 0 && (acceptError == EAGAIN || acceptError == EWOULDBLOCK) {
            return .stop
        }
        pauseAccepting()
        return .stop
    }

    /// Closes an accepted socket the loop does not serve: after a plain 503
    /// (``AcceptDecision/answerOverload``), else with an RST.
    private func refuse(_ descriptor: Int32, _ decision: AcceptDecision) {
        if decision == .answerOverload {
            _ = Self.overloadResponse.withUnsafeBytes { Socket.sendOnce(descriptor, $0) }
        } else {
            Socket.resetOnClose(descriptor)
        }
        Descriptor.close(descriptor)
    }

    private func pauseAccepting() {
        guard !acceptPaused, listener >= 0 else { return }
        acceptPaused = true
        poller.remove(listener)
        _ = timers.schedule(at: clock.monotonicNanoseconds &+ 100_000_000) { [self] in
            acceptPaused = false
            guard phase == .running, listener >= 0 else { return }
            do {
                try poller.addReadable(listener, token: Self.listenerToken)
            } catch {
                pauseAccepting()
            }
        }
    }

    private func appendSlot() -> Int {
        connections.append(nil)
        return connections.count - 1
    }

    /// Closes a connection now; with `reset`, sets `SO_LINGER` 0 so the peer gets an RST.
    /// Without `releasingItsPlace`, its place under the connection limit goes to the caller.
    func closeConnection(_ connection: Connection, reset: Bool, releasingItsPlace: Bool = true) {
        guard connection.machine.socketClosed() else { return }
        setDeadline(connection, nil)
        if reset { Socket.resetOnClose(connection.descriptor) }
        poller.remove(connection.descriptor)
        Descriptor.close(connection.descriptor)
        connections[connection.slot] = nil
        freeSlots.append(connection.slot)
        connectionCount -= 1
        if releasingItsPlace { lifecycle.releaseConnection() }
        if phase == .draining && connectionCount == 0 { phase = .stopped }
    }

    /// Puts a connection under the deadline of `kind` due `at` (as its state machine
    /// decided), or under none.
    func setDeadline(_ connection: Connection, _ kind: TimeoutList.Kind?, at deadline: UInt64 = 0) {
        if let current = connection.timeoutLinks.list {
            timeoutLists[current.rawValue].remove(
                connection.slot, links: &connection.timeoutLinks, connections: connections)
            if current == .body {
                bodyProgress.remove(connection.slot, links: &connection.progressLinks, connections: connections)
            }
        }
        if let kind {
            timeoutLists[kind.rawValue].append(
                connection.slot, links: &connection.timeoutLinks, kind: kind, deadline: deadline,
                connections: connections)
            // A body joins the order of progress as it begins: its bytes just arrived.
            if kind == .body {
                bodyProgress.append(connection.slot, links: &connection.progressLinks, connections: connections)
            }
        }
    }

    /// Bytes of a connection's request body arrived: it becomes the body that moved last.
    func bodyProgressed(_ connection: Connection) {
        guard connection.progressLinks.isMember else { return }
        bodyProgress.moveToTail(connection.slot, links: &connection.progressLinks, connections: connections)
    }

    func expireTimeouts() {
        for kind in TimeoutList.Kind.allCases {
            while true {
                let head = timeoutLists[kind.rawValue].head
                guard head >= 0, let connection = connections[head] else { break }
                guard connection.timeoutLinks.deadline <= now else { break }
                setDeadline(connection, nil)
                connection.deadlineReached()
            }
        }
    }

    /// Stops accepting, closes idle connections, lets in-flight ones finish, and closes
    /// whatever is left when the grace period ends.
    func beginShutdown() {
        guard phase == .running else { return }
        phase = .draining
        if listener >= 0 {
            poller.remove(listener)
            Descriptor.close(listener)
            listener = -1
        }
        for case let connection? in connections {
            connection.shutdownRequested()
        }
        if connectionCount == 0 {
            phase = .stopped
            return
        }
        let grace = configuration.shutdownGracePeriod.nanoseconds
        _ = timers.schedule(at: clock.monotonicNanoseconds &+ grace) { [self] in
            for case let connection? in connections { closeConnection(connection, reset: false) }
            phase = .stopped
        }
    }

    /// Hands a reply that came later (after a delay, or completed from another thread) to
    /// its connection, if that connection is still the one at the address.
    func deliver(_ reply: HTTPReply, to address: ReplyAddress) {
        if inEventLoop {
            deliverNow(reply, to: address)
        } else {
            execute { self.deliverNow(reply, to: address) }
        }
    }

    private func deliverNow(_ reply: HTTPReply, to address: ReplyAddress) {
        guard address.slot < connections.count, let connection = connections[address.slot],
            connection.generation == address.generation
        else { return }
        connection.deliver(reply, sequence: address.sequence)
    }
}
