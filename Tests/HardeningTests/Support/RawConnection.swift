import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// Why a raw connection failed.
enum RawConnectionError: Error, Equatable {
    case connectFailed(Int32)
    case system(String, Int32)
}

/// A blocking loopback TCP connection that sends exactly the bytes given and reads what comes
/// back, for clients no well-behaved library would be: every read gives up after `timeout`.
final class RawConnection {
    let descriptor: Int32

    init(port: Int, timeout: Duration = .seconds(5)) throws(RawConnectionError) {
        // Set `self.descriptor` only once connected: deinit runs even when init throws after
        // every stored property is set, and would close a number perhaps reused by then.
        let descriptor = socket(AF_INET, CSYSTEM_SOCK_STREAM | CSYSTEM_SOCK_CLOEXEC, 0)
        guard descriptor >= 0 else { throw .system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw .connectFailed(error)
        }
        self.descriptor = descriptor
        let (seconds, attoseconds) = timeout.components
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) throws(RawConnectionError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, CSYSTEM_MSG_NOSIGNAL)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system("send", errno)
            }
            offset += written
        }
    }

    /// Reads until the peer closes (or resets, or the read timeout passes); returns the bytes
    /// and whether the connection ended (false: the timeout passed with it still open).
    func readToEnd() -> (bytes: [UInt8], ended: Bool) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[0..<count]
                continue
            }
            if count == 0 { return (received, true) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return (received, false)
            default: return (received, true)
            }
        }
    }

    /// The text read to the end, for matching status lines.
    func responseText() -> String {
        String(decoding: readToEnd().bytes, as: UTF8.self)
    }
}
