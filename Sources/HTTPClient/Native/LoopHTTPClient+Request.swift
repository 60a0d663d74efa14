import HTTPCore

extension LoopHTTPClient {
    /// The bytes of `request` for `target`: request line, fields, body. A field a request line
    /// could be split by (a name that is not a token, a CR, LF or NUL in a value) is refused
    /// before anything is sent.
    static func requestBytes(
        _ request: HTTPClientRequest, _ target: NativeHTTPTarget, configuration: CurlTransportConfiguration
    ) throws(HTTPClientError) -> [UInt8] {
        guard !request.method.rawValue.isEmpty, request.method.rawValue.utf8.allSatisfy(\.isTokenCharacter) else {
            throw HTTPClientError(
                kind: .other, url: request.url,
                message: "the method '\(TerminalText.escape(request.method.rawValue))' is not a token")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + (request.body?.count ?? 0))
        func line(_ name: String, _ value: String) {
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: request.method.rawValue.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.originForm.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        line("Host", target.hostField)
        var userAgent = false
        var accept = false
        var acceptEncoding = false
        for field in request.headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(\.isTokenCharacter) else {
                throw HTTPClientError(
                    kind: .other, url: request.url,
                    message: "the header name '\(TerminalText.escape(field.name))' is not a token")
            }
            guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw HTTPClientError(
                    kind: .other, url: request.url,
                    message: "the value of header '\(field.name)' holds a line break or NUL")
            }
            userAgent = userAgent || field.name.equalsIgnoringASCIICase("User-Agent")
            accept = accept || field.name.equalsIgnoringASCIICase("Accept")
            acceptEncoding = acceptEncoding || field.name.equalsIgnoringASCIICase("Accept-Encoding")
            line(field.name, field.value)
        }
        if !userAgent { line("User-Agent", configuration.userAgent) }
        if !accept { line("Accept", "*/*") }
        if configuration.decompress && !acceptEncoding { line("Accept-Encoding", "gzip, deflate") }
        if let body = request.body { line("Content-Length", String(body.count)) }
        bytes.append(contentsOf: "\r\n".utf8)
        if let body = request.body { bytes.append(contentsOf: body) }
        return bytes
    }
}
