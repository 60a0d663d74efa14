import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking HTTP/1.1 client on a raw loopback socket, for live tests: it sends exactly the
/// bytes it is given (bad requests, pipelines, half-closed connections) and parses what comes
/// back itself, so a test sees what a real peer sees, faults and broken framing included.
///
/// Every read and write gives up after the `timeout` given to ``init(port:timeout:)``; nothing
/// sleeps. Bytes read past one response stay for the next read, so pipelined responses come
/// back one ``readResponse(head:)`` at a time.
///
/// ```swift
/// let client = try RawClient(port: server.port)
/// try client.send(get("/a") + get("/b", headers: "Connection: close\r\n"))
/// #expect(try client.readResponse().text == "/a")
/// #expect(try client.readResponse().header("Connection") == "close")
/// #expect(try client.ending() == .closed([]))  // then a clean FIN, no stray bytes
/// ```
///
/// Three ways to read, for three kinds of test:
/// - ``readResponse(head:)`` returns a response, or throws why none came (``RawClientError``).
/// - ``readOutcome(head:)`` returns what came instead: a response, or the bytes that arrived
///   before a close, a reset or broken framing (``RawOutcome``).
/// - ``readToEnd()`` and ``ending()`` read until the connection ends and say how (``RawEnding``).
///
/// For one request on a fresh connection, see ``exchange(_:_:_:headers:body:)`` and
/// ``fetch(_:_:_:headers:body:)``.
package final class RawClient {
    /// The connected socket: the client owns it and closes it when released.
    package let descriptor: Int32
    /// Bytes read but not yet handed out: the start of the next response, or of the ending.
    var buffer: [UInt8] = []
    /// How far the response being parsed has got in `buffer`.
    var cursor = 0
    /// Where `recv` reads to before the bytes go to `buffer`.
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to 127.0.0.1:`port`; a connect, read or write gives up after `timeout`.
    package init(port: Int, timeout: Duration = .seconds(10)) throws(RawClientError) {
        // `self.descriptor` is set only once connected: a class whose init throws after every
        // stored property is set still runs deinit, which would close the descriptor a second
        // time, by then perhaps another test's epoll, eventfd or socket.
        let descriptor = Socket.openStream(family: AF_INET)
        guard descriptor >= 0 else { throw .system("socket", errno) }
        let (seconds, attoseconds) = timeout.components
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        // Set before connect: on Linux SO_SNDTIMEO also bounds a blocking connect.
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
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
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `text` as UTF-8.
    package func send(_ text: String) throws(RawClientError) {
        try send(Array(text.utf8))
    }

    /// Sends all of `bytes`; throws `.reset` once the server has reset or closed the
    /// connection, `.timedOut` when the server stops reading for longer than the timeout.
    package func send(_ bytes: [UInt8]) throws(RawClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Socket.sendOnce(descriptor, UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            if written < 0 {
                switch errno {
                case EINTR: continue
                case ECONNRESET, EPIPE: throw .reset
                case EAGAIN, EWOULDBLOCK: throw .timedOut
                default: throw .system("send", errno)
                }
            }
            offset += written
        }
    }

    /// Sends a request with `Host: 127.0.0.1`, the `headers` given, and `Content-Length` when
    /// there is a body or the method is POST or PUT.
    package func sendRequest(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: String = ""
    ) throws(RawClientError) {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.utf8.count)\r\n" }
        try send(text + "\r\n" + body)
    }

    /// Shuts the client's sending side: the server reads end of file, and can still answer.
    package func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Makes the close on release send an RST instead of a FIN (`SO_LINGER` of 0).
    package func resetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Reads one response (a `100 Continue` counts as one); `head: true` reads no body, as for
    /// a HEAD request. Throws `.closed` or `.reset` when the connection ends before the response
    /// is complete, `.malformed` when its status line, headers or chunked framing are broken,
    /// `.timedOut` when nothing more comes in time.
    package func readResponse(head: Bool = false) throws(RawClientError) -> RawResponse {
        do {
            let response = try parseResponse(head: head)
            buffer.removeFirst(cursor)
            cursor = 0
            return response
        } catch {
            cursor = 0  // keep the response's bytes, for an outcome or an ending to report
            throw error
        }
    }

    /// Reads one response as ``readResponse(head:)`` does, but a connection that ends before a
    /// complete response, or broken framing, is an outcome carrying every byte that arrived for
    /// it; only a timeout or a failing system call throws.
    package func readOutcome(head: Bool = false) throws(RawClientError) -> RawOutcome {
        do {
            return .response(try readResponse(head: head))
        } catch .closed {
            return .closed(takeBuffer())
        } catch .reset {
            return .reset(takeBuffer())
        } catch .malformed {
            return .malformed(takeBuffer())
        }
    }

    /// Reads until the server closes or resets the connection, or until the timeout passes
    /// with it still open, and returns which along with every byte not yet handed out.
    package func readToEnd() throws(RawClientError) -> RawEnding {
        do {
            while try fill() {}
            return .closed(takeBuffer())
        } catch .reset {
            return .reset(takeBuffer())
        } catch .timedOut {
            return .timedOut(takeBuffer())
        }
    }

    /// Reads until the server ends the connection, which it must: `.closed` or `.reset` with
    /// every byte not yet handed out; throws `.timedOut` when it is still open after the timeout.
    package func ending() throws(RawClientError) -> RawEnding {
        let ending = try readToEnd()
        if case .timedOut = ending { throw .timedOut }
        return ending
    }

    /// Reads what has arrived into `buffer`; false at end of file (the server's FIN).
    func fill() throws(RawClientError) -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
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

    /// Everything not yet handed out, now handed out.
    private func takeBuffer() -> [UInt8] {
        defer {
            buffer = []
            cursor = 0
        }
        return buffer
    }
}

extension RawClient {
    /// Whether anything has arrived that was not handed out yet — bytes, the server's FIN or a
    /// reset — without waiting. For "nothing yet" checks after the server's loop settled.
    package var hasPendingInput: Bool {
        guard buffer.isEmpty else { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Reads exactly `count` bytes past what was handed out (waiting for them up to the
    /// client's timeout), and hands them out.
    package func readBytes(count: Int) throws(RawClientError) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw .closed }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }
}
