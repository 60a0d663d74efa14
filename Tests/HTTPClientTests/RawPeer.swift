import Foundation
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP listener scripted at the byte level, for transport failures no well-behaved
/// server produces: silence, a reset, garbage, an early close. Port 0; blocking socket calls
/// run on a dedicated thread, never on the cooperative pool.
final class RawPeer: Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let fd = Socket.openStream(family: AF_INET)
        guard fd >= 0 else { throw PeerError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw PeerError("bind/listen failed")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(listener)
    }

    var url: String { "http://127.0.0.1:\(port)/" }

    /// Accepts one connection and reads the request head; returns the connection's descriptor.
    func acceptRequest() async throws -> Int32 {
        try await onThread { [listener] in
            let fd = accept(listener, nil, nil)
            // Not inherited by a child a test starts meanwhile (see ProcessLaunch).
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            guard fd >= 0 else { throw PeerError("accept failed") }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.ends(with: Array("\r\n\r\n".utf8)) {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { throw PeerError("peer closed before the request head ended") }
                received += buffer[0..<count]
            }
            return fd
        }
    }

    /// Waits until the other side closes the connection; true when it did (read gave EOF or a reset).
    static func waitForClose(_ fd: Int32) async throws -> Bool {
        try await onThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { return true }
            }
        }
    }

    static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Descriptor.write(fd, $0.baseAddress, $0.count) }
    }

    /// Closes with SO_LINGER 0, which sends a TCP reset instead of a FIN.
    static func reset(_ fd: Int32) {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }
}

struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
