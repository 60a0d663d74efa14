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
        // Each text copied whole from its storage, not appended byte by byte through its view.
        func put(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
        func line(_ name: String, _ value: String) {
            put(name)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            put(value)
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
        put(request.method.rawValue)
        bytes.append(UInt8(ascii: " "))
        put(target.originForm)
        put(" HTTP/1.1\r\n")
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
        bytes.append(0x0D)
        bytes.append(0x0A)
        if let body = request.body { bytes.append(contentsOf: body) }
        return bytes
    }
}
