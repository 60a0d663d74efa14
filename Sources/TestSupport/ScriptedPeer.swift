import Foundation
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP listener scripted at the byte level, for failures no well-behaved server
/// produces: silence, a reset, garbage, an early close. Port 0; blocking socket calls run on
/// a dedicated thread, never on the cooperative pool. One connection at a time, driven by the
/// test; for a server that answers every connection by a script, see ``ScriptedServer``.
///
/// ```swift
/// let peer = try ScriptedPeer()
/// async let outcome = client.send(HTTPClientRequest(url: peer.url))
/// ScriptedPeer.reset(try await peer.acceptRequest())
/// ```
package final class ScriptedPeer: Sendable {
    /// The port it listens on.
    package let port: Int
    private let listener: Int32

    /// Listens on a free loopback port.
    package init() throws(RawClientError) {
        (listener, port) = try LoopbackSocket.bind(listening: 16)
    }

    deinit {
        close(listener)
    }

    /// `http://127.0.0.1:PORT/`.
    package var url: String { "http://127.0.0.1:\(port)/" }

    /// Accepts one connection and reads the request head; returns the connection's descriptor.
    package func acceptRequest() async throws -> Int32 {
        try await Self.onThread { [listener] in
            let fd = accept(listener, nil, nil)
            // Not inherited by a child a test starts meanwhile (ChildProcess closes them anyway).
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            guard fd >= 0 else { throw RawClientError.system("accept", errno) }
            var pending: [UInt8] = []
            guard ScriptedConnection(descriptor: fd).readHead(&pending) != nil else {
                close(fd)
                throw RawClientError.closed
            }
            return fd
        }
    }

    /// Waits until the other side closes the connection; true when it did (EOF or a reset).
    package static func waitForClose(_ fd: Int32) async throws -> Bool {
        try await onThread {
            ScriptedConnection(descriptor: fd).waitForClose()
            return true
        }
    }

    /// Writes the text's bytes to the connection.
    package static func write(_ text: String, to fd: Int32) {
        ScriptedConnection(descriptor: fd).write(text)
    }

    /// Closes with SO_LINGER 0, which sends a TCP reset instead of a FIN.
    package static func reset(_ fd: Int32) {
        ScriptedConnection(descriptor: fd).resetOnClose()
        close(fd)
    }

    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
