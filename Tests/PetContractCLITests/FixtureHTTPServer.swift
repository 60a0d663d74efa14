import Foundation
import Platform
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on loopback for the CLI's live tests: port 0, fixed responses by
/// path, one connection at a time, `Connection: close`. Ready when `init` returns (the socket
/// is listening); `stop()` closes it and waits for the accept thread. With `requiredHeader`,
/// a request without that exact header line gets 401.
final class FixtureHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int
        var contentType: String
        var body: String
    }

    let port: UInt16
    private let listener: Int32
    private let routes: [String: Response]
    private let requiredHeader: String?
    private let done = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(routes: [String: Response], requiredHeader: String? = nil) throws {
        self.routes = routes
        self.requiredHeader = requiredHeader
        let fd = Socket.openStream(family: AF_INET)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            // Not inherited by the petcontract process a test starts (see ProcessLaunch).
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            if client < 0 {
                if done.withLock({ $0 }) { return }
                continue
            }
            answer(client)
            close(client)
        }
    }

    private func answer(_ client: Int32) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let path = String(target.split(separator: "?").first ?? "")
        let lines = String(decoding: request, as: UTF8.self).split(separator: "\r\n").map(String.init)
        let response =
            if let requiredHeader, !lines.contains(requiredHeader) {
                Response(status: 401, contentType: "text/plain", body: "no \(requiredHeader)")
            } else {
                routes[path] ?? Response(status: 404, contentType: "text/plain", body: "no route")
            }
        let body = Array(response.body.utf8)
        var head = "HTTP/1.1 \(response.status) Fixture\r\nContent-Type: \(response.contentType)\r\n"
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    func stop() {
        done.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        // Close only once the accept thread is gone: it may still be answering a client and
        // call accept() again, and by then the number could belong to another test's socket.
        finished.wait()
        close(listener)
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4)
        where self[index] == 0x0D && self[index + 1] == 0x0A && self[index + 2] == 0x0D && self[index + 3] == 0x0A {
            return true
        }
        return false
    }
}
