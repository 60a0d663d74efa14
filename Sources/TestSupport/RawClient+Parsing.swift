extension RawClient {
    /// Parses one response from `cursor`, reading more as needed; `cursor` ends past it.
    func parseResponse(head: Bool) throws(RawClientError) -> RawResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformed("status line '\(statusLine)'")
        }
        var fields: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("header line '\(line)'") }
            fields.append((String(line[..<colon]), String(line[line.index(after: colon)...].trimmingSpaces())))
        }
        var response = RawResponse(status: status, headers: RawHeaders(fields: fields))
        // RFC 9112 §6.3: no body after HEAD, 1xx, 204 or 304; chunked wins over Content-Length;
        // with neither, the body runs to the close.
        if head || (100..<200).contains(status) || status == 204 || status == 304 { return response }
        if response.headers.containsToken("chunked", inHeader: "Transfer-Encoding") {
            var sizes: [Int] = []
            response.body = try readChunkedBody(sizes: &sizes)
            response.chunkSizes = sizes
        } else if let lengthText = response.headers["Content-Length"], let length = Int(lengthText) {
            guard length >= 0 else { throw .malformed("Content-Length '\(lengthText)'") }
            response.body = try readBytes(length)
        } else {
            while try fill() {}
            response.body = Array(buffer[cursor...])
            cursor = buffer.count
        }
        return response
    }

    /// A chunked body's data; `sizes` gets each chunk's size. Trailer fields are read and dropped.
    private func readChunkedBody(sizes: inout [Int]) throws(RawClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";", omittingEmptySubsequences: false)[0].trimmingSpaces()
            guard let size = Int(sizeText, radix: 16), size >= 0 else { throw .malformed("chunk size '\(line)'") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            body += try readBytes(size)
            sizes.append(size)
            let terminator = try readLine()
            guard terminator.isEmpty else { throw .malformed("chunk terminator '\(terminator)'") }
        }
    }

    /// The next line from `cursor`, without its LF or a CR before it.
    private func readLine() throws(RawClientError) -> String {
        var searched = cursor
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > cursor && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[cursor..<end], as: UTF8.self)
                cursor = newline + 1
                return line
            }
            searched = buffer.count
            guard try fill() else { throw .closed }
        }
    }

    /// The next `count` bytes from `cursor`.
    private func readBytes(_ count: Int) throws(RawClientError) -> [UInt8] {
        while buffer.count - cursor < count {
            guard try fill() else { throw .closed }
        }
        defer { cursor += count }
        return Array(buffer[cursor..<(cursor + count)])
    }
}
