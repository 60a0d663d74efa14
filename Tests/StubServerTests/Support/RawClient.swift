import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response read off a socket by ``RawClient``.
struct RawResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    /// The chunk sizes, when the body came chunked.
    var chunkSizes: [Int]?

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How an exchange on a socket ended.
enum RawOutcome {
    /// A complete response.
    case response(RawResponse)
    /// The server closed the connection before a complete response; what it had sent.
    case closed([UInt8])
    /// The connection was reset; what had arrived before.
    case reset([UInt8])
    /// A chunked body whose framing is broken; what arrived.
    case malformed([UInt8])

    var response: RawResponse? {
        if case .response(let response) = self { return response }
        return nil
    }
}

struct RawClientError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking loopback HTTP/1.1 client on a raw socket, so tests see exactly what the server
/// sends, faults included. Every read has a 10 s timeout.
final class RawClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        // `self.descriptor` is set only once connected: a class whose init throws after every
        // stored property is set still runs deinit, which would close the descriptor a second
        // time, by then perhaps another test's epoll, eventfd or socket.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError(description: "socket failed") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw RawClientError(description: "connect to port \(port) failed: errno \(error)")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Sends a request with `Host` and `Content-Length` filled in.
    func sendRequest(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: String = "") {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.utf8.count)\r\n" }
        send(text + "\r\n" + body)
    }

    /// Reads one response (the body skipped for HEAD).
    func readResponse(isHead: Bool = false) throws -> RawOutcome {
        while true {
            switch Self.parse(buffer, isHead: isHead, atEnd: false) {
            case .complete(let response, let used):
                buffer.removeFirst(used)
                return .response(response)
            case .malformed:
                return .malformed(buffer)
            case .incomplete:
                break
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                continue
            }
            if count == 0 {
                if case .complete(let response, _) = Self.parse(buffer, isHead: isHead, atEnd: true) {
                    return .response(response)
                }
                return .closed(buffer)
            }
            if errno == ECONNRESET { return .reset(buffer) }
            if errno == EINTR { continue }
            throw RawClientError(description: "no response within 10 s (errno \(errno)); got \(buffer.count) bytes")
        }
    }

    private enum Parse {
        case incomplete
        case malformed
        case complete(RawResponse, Int)
    }

    private static func parse(_ bytes: [UInt8], isHead: Bool, atEnd: Bool) -> Parse {
        guard let headEnd = find([13, 10, 13, 10], in: bytes) else { return .incomplete }
        let headText = String(decoding: bytes[..<headEnd], as: UTF8.self)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty, lines[0].hasPrefix("HTTP/1."), lines[0].split(separator: " ").count >= 2,
            let status = Int(lines[0].split(separator: " ")[1])
        else { return .malformed }
        lines.removeFirst()
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .malformed }
            headers.add(
                name: String(line[..<colon]), value: String(line[line.index(after: colon)...].trimmingASCIISpaces()))
        }
        let bodyStart = headEnd + 4
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) {
            return .complete(RawResponse(status: status, headers: headers, body: [], chunkSizes: nil), bodyStart)
        }
        if headers.containsToken("chunked", inHeader: "Transfer-Encoding") {
            return parseChunks(bytes, from: bodyStart, status: status, headers: headers)
        }
        if let lengthText = headers["Content-Length"], let length = Int(lengthText) {
            guard bytes.count - bodyStart >= length else { return .incomplete }
            let body = Array(bytes[bodyStart..<(bodyStart + length)])
            return .complete(
                RawResponse(status: status, headers: headers, body: body, chunkSizes: nil), bodyStart + length)
        }
        guard atEnd else { return .incomplete }
        return .complete(
            RawResponse(status: status, headers: headers, body: Array(bytes[bodyStart...]), chunkSizes: nil),
            bytes.count)
    }

    private static func parseChunks(_ bytes: [UInt8], from start: Int, status: Int, headers: HTTPHeaders) -> Parse {
        var offset = start
        var body: [UInt8] = []
        var sizes: [Int] = []
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: offset) else { return .incomplete }
            let sizeText = String(decoding: bytes[offset..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText, radix: 16) else { return .malformed }
            offset = lineEnd + 2
            if size == 0 {
                guard bytes.count >= offset + 2 else { return .incomplete }
                return .complete(
                    RawResponse(status: status, headers: headers, body: body, chunkSizes: sizes), offset + 2)
            }
            guard bytes.count >= offset + size + 2 else { return .incomplete }
            body += bytes[offset..<(offset + size)]
            sizes.append(size)
            offset += size + 2
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count)
        where bytes[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

/// One request on a fresh connection.
func exchange(
    _ port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: String = ""
) throws -> RawOutcome {
    let client = try RawClient(port: port)
    client.sendRequest(method, target, headers: headers, body: body)
    return try client.readResponse(isHead: method == "HEAD")
}

/// One GET on a fresh connection.
func exchange(_ port: Int, _ target: String, headers: [(String, String)] = []) throws -> RawOutcome {
    try exchange(port, "GET", target, headers: headers)
}

/// One request that must get a complete response.
func fetch(
    _ port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: String = ""
) throws -> RawResponse {
    let outcome = try exchange(port, method, target, headers: headers, body: body)
    guard let response = outcome.response else {
        throw RawClientError(description: "expected a response to \(method) \(target), got \(outcome)")
    }
    return response
}

/// One GET that must get a complete response.
func fetch(_ port: Int, _ target: String, headers: [(String, String)] = []) throws -> RawResponse {
    try fetch(port, "GET", target, headers: headers)
}
