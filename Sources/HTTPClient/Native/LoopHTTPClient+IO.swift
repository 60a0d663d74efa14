import HTTPCore
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LoopHTTPClient {
    /// Puts `transfer` on an idle connection to its target, or on a new one.
    func start(_ transfer: UpstreamTransfer) {
        lowerDeadline(to: transfer.deadline)
        if !transfer.retried, let connection = takeIdle(transfer.target.key) {
            attach(transfer, to: connection)
            queuedWrites.append(connection)
            return
        }
        let now = clock()
        let (descriptor, error) = Socket.startConnecting(to: transfer.target.address)
        guard descriptor >= 0 else {
            transfersInFlight -= 1
            finish(transfer.request, .failure(connectError(transfer, error)), transfer.completion)
            return
        }
        transfer.connectStarted = now
        let connection = UpstreamConnection(
            descriptor: descriptor, key: transfer.target.key, phase: error == 0 ? .sending : .connecting)
        connections[descriptor] = connection
        attach(transfer, to: connection)
        if error == 0 {
            transfer.connected = now
            write(connection)
        } else {
            lowerDeadline(to: transfer.currentDeadline(configuration))
            host.watch(descriptor, read: false, write: true)
        }
    }

    private func attach(_ transfer: UpstreamTransfer, to connection: UpstreamConnection) {
        connection.transfer = transfer
        connection.written = 0
        connection.reader = HTTPResponseReader(
            method: transfer.request.method, maxBodySize: configuration.maxResponseSize)
        if connection.phase == .idle { connection.phase = .sending }
    }

    /// The most recently used idle connection to `key` young enough to use; older ones are closed.
    private func takeIdle(_ key: String) -> UpstreamConnection? {
        let now = clock()
        guard let connections = idle[key] else { return nil }
        while let connection = connections.list.popLast() {
            idleCount -= 1
            if now &- connection.idleSince <= Self.maxIdleAge {
                connection.reused = true
                return connection
            }
            close(connection)
        }
        return nil
    }

    /// A connect under way ended: send, or fail.
    func connected(_ connection: UpstreamConnection) {
        guard let transfer = connection.transfer else { return close(connection) }
        let error = Socket.pendingError(connection.descriptor)
        guard error == 0 else { return fail(connection, connectError(transfer, error)) }
        transfer.connected = clock()
        connection.phase = .sending
        write(connection)
    }

    /// Writes what is left of the request; waits for the answer once it is all out.
    func write(_ connection: UpstreamConnection) {
        guard let transfer = connection.transfer else { return close(connection) }
        while connection.written < transfer.bytes.count {
            let start = connection.written
            let sent = transfer.bytes.withUnsafeBytes {
                Socket.sendOnce(connection.descriptor, UnsafeRawBufferPointer(rebasing: $0[start...]))
            }
            if sent > 0 {
                connection.written += sent
                continue
            }
            let error = errno
            if sent < 0 && error == EINTR { continue }
            if sent < 0 && (error == EAGAIN || error == EWOULDBLOCK) {
                host.watch(connection.descriptor, read: false, write: true)
                return
            }
            if connection.reused && !transfer.retried { return retry(connection) }
            // The upstream may have answered already (a 413 before the whole body, say) and
            // closed: what it sent is the outcome, read as any answer is.
            connection.phase = .receiving
            host.watch(connection.descriptor, read: true, write: false)
            return read(connection)
        }
        connection.phase = .receiving
        host.watch(connection.descriptor, read: true, write: false)
    }

    /// Reads what arrived; completes the transfer with the last byte of the response.
    func read(_ connection: UpstreamConnection) {
        guard let transfer = connection.transfer else { return close(connection) }
        while true {
            let count = Descriptor.read(connection.descriptor, scratch.baseAddress, scratch.count)
            if count > 0 {
                if transfer.firstByte == nil { transfer.firstByte = clock() }
                do {
                    if try connection.reader.read(UnsafeRawBufferPointer(rebasing: scratch[..<count])) {
                        return complete(connection)
                    }
                } catch {
                    return fail(connection, Self.clientError(error, url: transfer.request.url))
                }
                // A short read took all there was: wait to hear of more.
                if count < scratch.count { return }
                continue
            }
            let error = errno
            if count < 0 && error == EINTR { continue }
            if count < 0 && (error == EAGAIN || error == EWOULDBLOCK) { return }
            if !connection.reader.receivedAny && connection.reused && !transfer.retried {
                return retry(connection)
            }
            if count < 0 {
                return fail(
                    connection,
                    HTTPClientError(
                        kind: .connectionClosed, url: transfer.request.url,
                        message: "Recv failure: \(Socket.errorMessage(error))", curlCode: 56))
            }
            do {
                _ = try connection.reader.readEnd()
                return complete(connection)
            } catch {
                return fail(connection, Self.clientError(error, url: transfer.request.url))
            }
        }
    }

    /// The response is whole: the connection goes back to the idle ones (or is closed), then
    /// the caller hears.
    private func complete(_ connection: UpstreamConnection) {
        guard let transfer = connection.transfer, let head = connection.reader.head else { return close(connection) }
        var body = connection.reader.body
        var coding: String?
        if configuration.decompress, let decodable = ContentDecoding.decodable(head.headers["Content-Encoding"]) {
            switch ContentDecoding.decode(body, coding: decodable, limit: configuration.maxResponseSize) {
            case .success(let decoded):
                body = decoded
                coding = decodable
            case .failure(let error):
                return fail(connection, Self.clientError(error, url: transfer.request.url, decoding: true))
            }
        }
        let now = clock()
        let since = { (instant: UInt64?) in
            Duration.nanoseconds(Int64(bitPattern: (instant ?? now) &- transfer.started))
        }
        var response = HTTPClientResponse(
            status: head.status, version: head.version, headers: head.headers, body: body, contentEncoding: coding,
            url: transfer.request.url,
            timings: HTTPTimings(
                connect: connection.reused ? .zero : since(transfer.connected), firstByte: since(transfer.firstByte),
                total: since(now)))
        response.connectionReused = connection.reused
        connection.transfer = nil
        if head.keepAlive && !stopped && idleCount < configuration.maxCachedConnections {
            connection.phase = .idle
            connection.idleSince = now
            connection.reader = HTTPResponseReader(method: .get, maxBodySize: 0)
            if let list = idle[connection.key] {
                list.list.append(connection)
            } else {
                // Many targets (a templated base URL) leave many emptied lists: dropped in bulk.
                if idle.count >= 256 { idle = idle.filter { !$0.value.list.isEmpty } }
                let list = IdleConnections()
                list.list.append(connection)
                idle[connection.key] = list
            }
            idleCount += 1
            host.park(connection.descriptor)
        } else {
            close(connection)
        }
        transfersInFlight -= 1
        finish(transfer.request, .success(response), transfer.completion)
    }

    /// Ends the transfer on `connection` with `error` and closes the connection.
    func fail(_ connection: UpstreamConnection, _ error: HTTPClientError) {
        let transfer = connection.transfer
        close(connection)
        guard let transfer else { return }
        transfersInFlight -= 1
        finish(transfer.request, .failure(error), transfer.completion)
    }

    /// The kept-alive connection was gone before any answer: once more, on a new connection.
    private func retry(_ connection: UpstreamConnection) {
        guard let transfer = connection.transfer else { return close(connection) }
        close(connection)
        transfer.retried = true
        start(transfer)
    }

    /// Closes `connection` (its transfer, if any, is the caller's to end).
    func close(_ connection: UpstreamConnection) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        if connection.phase == .idle, let connections = idle[connection.key],
            let index = connections.list.firstIndex(where: { $0 === connection })
        {
            connections.list.remove(at: index)
            idleCount -= 1
        }
        connection.transfer = nil
        host.unwatch(connection.descriptor)
        Descriptor.close(connection.descriptor)
    }

    private func connectError(_ transfer: UpstreamTransfer, _ error: Int32) -> HTTPClientError {
        let target = transfer.target
        return HTTPClientError(
            kind: error == ETIMEDOUT ? .timedOut : .couldNotConnect, url: transfer.request.url,
            message: "Failed to connect to \(target.hostField): \(Socket.errorMessage(error))",
            curlCode: error == ETIMEDOUT ? 28 : 7)
    }

    /// A reader's error as the client reports it, with libcurl's code for the same condition.
    static func clientError(_ error: HTTPResponseError, url: String, decoding: Bool = false) -> HTTPClientError {
        switch error {
        case .tooLarge:
            HTTPClientError(kind: .tooLarge, url: url, message: error.description, curlCode: 63)
        case .noResponse:
            HTTPClientError(kind: .connectionClosed, url: url, message: "Empty reply from server", curlCode: 52)
        case .truncated:
            HTTPClientError(kind: .connectionClosed, url: url, message: error.description, curlCode: 18)
        case .malformed, .headTooLarge, .bytesAfterResponse:
            HTTPClientError(
                kind: .malformedResponse, url: url, message: error.description, curlCode: decoding ? 61 : 8)
        }
    }
}
