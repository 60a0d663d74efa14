import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted loopback connection of a ``ScriptedServer`` or a ``ScriptedPeer``, driven at
/// the byte level: blocking writes that report whether the client is still there, half and
/// full shutdowns, a reset. It does not own the descriptor: its server or test closes it.
package struct ScriptedConnection: Sendable {
    /// The connected socket.
    package let descriptor: Int32

    /// Wraps an accepted socket.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes all of `bytes`; false once the client has gone (never `SIGPIPE`).
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Socket.sendOnce(descriptor, UnsafeRawBufferPointer(rebasing: $0[offset...]))
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Writes the text's UTF-8 bytes; false once the client has gone.
    @discardableResult
    package func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Ends the stream towards the client (a FIN after what was written); reading goes on.
    package func endWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Shuts both directions: the client sees the end, and a read or write here ends at once.
    package func hangUp() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Makes the coming close send a TCP reset instead of a FIN.
    package func resetOnClose() {
        Socket.resetOnClose(descriptor)
    }

    /// Reads up to the end of the next request head (the blank line) and returns the head's
    /// bytes; what came after it stays in `pending` for the next call. Nil when the client
    /// closed (or reset) first.
    package func readHead(_ pending: inout [UInt8]) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let end = Self.headEnd(in: pending) {
                defer { pending.removeFirst(end) }
                return Array(pending[..<end])
            }
            let count = chunk.withUnsafeMutableBytes { Descriptor.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return nil }
            pending += chunk[0..<count]
        }
    }

    /// Reads until the client closes or resets; what it sent meanwhile is dropped.
    package func waitForClose() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeMutableBytes({ Descriptor.read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// The path of a request head's first line (`/` when there is none).
    package static func path(ofHead head: [UInt8]) -> String {
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
