import CSystem
import Dispatch
import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP server that misbehaves on purpose, at the byte level: each request's path
/// goes to `behaviour`, which writes whatever it likes to the connection (through `write`,
/// which reports whether the client is still there). One thread per connection, so a slow or
/// endless answer holds nothing else up. Ready when `init` returns; `stop()` closes the
/// listener once its thread has left `accept`, and waits for every connection to end.
final class HostileHTTPServer: Sendable {
    /// One client connection, for a behaviour to write to.
    struct Connection: Sendable {
        let descriptor: Int32

        /// Writes all of `bytes`; false once the client has gone.
        @discardableResult
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    send(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset, CSYSTEM_MSG_NOSIGNAL)
                }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }

        @discardableResult
        func write(_ text: String) -> Bool { write(Array(text.utf8)) }
    }

    let port: Int
    private let listener: Int32
    private let behaviour: @Sendable (_ path: String, _ connection: Connection) -> Void
    private let stopping = Mutex(false)
    private let connections = DispatchGroup()
    private let acceptDone = DispatchSemaphore(value: 0)
    /// How many connections were accepted.
    let accepted = Mutex(0)

    init(behaviour: @escaping @Sendable (_ path: String, _ connection: Connection) -> Void) throws {
        self.behaviour = behaviour
        (listener, port) = try LoopbackSocket.bind(listening: 64)
        DispatchQueue.global().async { [self] in acceptLoop() }
    }

    private func acceptLoop() {
        defer { acceptDone.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if stopping.withLock({ $0 }) { return }
                continue
            }
            accepted.withLock { $0 += 1 }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            connections.enter()
            Thread.detachNewThread { [self] in
                serve(client)
                close(client)
                connections.leave()
            }
        }
    }

    /// Reads requests one by one (heads only; these clients send no bodies) and hands each path
    /// to the behaviour, until the client closes.
    private func serve(_ client: Int32) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while !stopping.withLock({ $0 }) {
            guard let end = Self.headEnd(in: pending) else {
                let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                pending += chunk[0..<count]
                continue
            }
            let line = String(decoding: pending.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
            pending.removeFirst(end)
            let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            behaviour(path, Connection(descriptor: client))
        }
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Stops accepting and waits (at most `timeout`) for every connection to end.
    func stop(timeout: Duration = .seconds(10)) {
        stopping.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptDone.wait()
        close(listener)  // only now: the accept thread can no longer use the number
        _ = connections.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000)))
    }
}
