import CSystem
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// What went wrong on the test client's side of a socket.
enum TestClientError: Error, Equatable {
    case connectFailed(Int32)
    case timedOut
    case reset
    case closed
    case system(String, Int32)
    case malformed(String)
}

/// A response as the raw test client read it.
struct TestResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How a connection ended from the client's point of view.
enum TestEnding: Equatable {
    /// The server closed cleanly (FIN) after these bytes.
    case closed([UInt8])
    /// The server reset the connection after these bytes.
    case reset([UInt8])
}

/// A blocking raw-socket HTTP/1.1 client for live tests: it sends exactly the bytes given
/// and parses responses itself, so tests see what a real peer sees, byte for byte.
final class TestClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:port; every read gives up after `timeout`.
    init(port: Int, timeout: Duration = .seconds(5)) throws(TestClientError) {
        // `self.descriptor` is set only once connected: a class whose init throws after every
        // stored property is set still runs deinit, which would close the descriptor a second
        // time, by then perhaps another test's epoll, eventfd or socket.
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
            Glibc.close(descriptor)
            throw .connectFailed(error)
        }
        self.descriptor = descriptor
        let (seconds, attoseconds) = timeout.components
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(descriptor, CSYSTEM_IPPROTO_TCP, CSYSTEM_TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        Glibc.close(descriptor)
    }

    func send(_ text: String) throws(TestClientError) {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws(TestClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(descriptor, base + offset, raw.count - offset, CSYSTEM_MSG_NOSIGNAL)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET || errno == EPIPE { throw .reset }
                throw .system("send", errno)
            }
            offset += written
        }
    }

    /// Shuts the client's sending side (the server reads end of file).
    func shutdownWrite() {
        Glibc.shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Makes the next close send an RST instead of a FIN.
    func resetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Reads more bytes into the buffer; false at end of file.
    private func fill() throws(TestClientError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: throw .timedOut
            case ECONNRESET: throw .reset
            default: throw .system("recv", errno)
            }
        }
    }

    private func readLine() throws(TestClientError) -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw .closed }
        }
    }

    private func readExactly(_ count: Int) throws(TestClientError) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw .closed }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

    /// Reads one response (a `100 Continue` counts as one). `head` skips the body.
    func readResponse(head: Bool = false) throws(TestClientError) -> TestResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformed(statusLine)
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw .malformed(line) }
            headers.append(
                (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        if head || (100..<200).contains(status) || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readExactly(length)
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    private func readChunkedBody() throws(TestClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText, radix: 16) else { throw .malformed("chunk size '\(line)'") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            body += try readExactly(size)
            guard try readLine().isEmpty else { throw .malformed("chunk terminator") }
        }
    }

    /// Reads until the server closes; throws `.reset` on an RST.
    func readToEnd() throws(TestClientError) -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Reads until the connection ends and says how it ended.
    func ending() throws(TestClientError) -> TestEnding {
        do {
            while try fill() {}
            defer { buffer = [] }
            return .closed(buffer)
        } catch .reset {
            defer { buffer = [] }
            return .reset(buffer)
        }
    }
}

/// A GET request with the Host header an HTTP/1.1 server requires.
func get(_ path: String, headers: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: test\r\n\(headers)\r\n"
}
