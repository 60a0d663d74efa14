extension HTTPResponseReader {
    /// Reads a chunk-size line (`1a;name=value CRLF`) from `input`, collecting it across
    /// pieces; returns how many bytes it used.
    mutating func readChunkLine(_ input: UnsafeRawBufferPointer) throws(HTTPResponseError) -> Int {
        guard let newline = input.firstIndex(of: Self.lf) else {
            try collect(input)
            return input.count
        }
        try collect(UnsafeRawBufferPointer(rebasing: input[..<newline]))
        let collected = line
        line = []
        let size = try Self.chunkSize(collected)
        if size == 0 {
            state = .trailers
        } else {
            guard body.count + size <= maxBodySize else { throw .tooLarge(limit: maxBodySize) }
            state = .chunkData(remaining: size)
        }
        return newline + 1
    }

    /// Skips the trailer section up to and including its empty line: trailers are not kept
    /// (the reply is framed anew, with a length). Returns how many bytes it used.
    mutating func readTrailers(_ input: UnsafeRawBufferPointer) throws(HTTPResponseError) -> Int {
        var offset = 0
        while offset < input.count {
            let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
            guard let newline = rest.firstIndex(of: Self.lf) else {
                try collect(rest)
                return input.count
            }
            try collect(UnsafeRawBufferPointer(rebasing: rest[..<newline]))
            offset += newline + 1
            let empty = line.isEmpty || line == [Self.cr]
            trailerBytes += line.count + 1
            line = []
            if empty {
                state = .complete
                return offset
            }
        }
        return offset
    }

    private mutating func collect(_ bytes: UnsafeRawBufferPointer) throws(HTTPResponseError) {
        guard line.count + bytes.count + trailerBytes <= limits.lineBytes else {
            throw .malformed("a chunk-size line or the trailers run past \(limits.lineBytes) bytes")
        }
        line.append(contentsOf: bytes)
    }

    /// The size a chunk line gives: hex digits, then nothing, or whitespace and an extension.
    static func chunkSize(_ line: [UInt8]) throws(HTTPResponseError) -> Int {
        var size = 0
        var digits = 0
        var index = 0
        while index < line.count, let value = hexValue(line[index]) {
            digits += 1
            guard digits <= 15 else { throw .malformed("a chunk size has more than 15 hex digits") }
            size = size << 4 | value
            index += 1
        }
        guard digits > 0 else { throw .malformed("the chunk-size line \(quoted(line)) does not start with hex digits") }
        var rest = line[index...]
        if rest.last == cr { rest = rest.dropLast() }
        while let first = rest.first, first == space || first == tab { rest = rest.dropFirst() }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            throw .malformed("the chunk-size line \(quoted(line)) has \(quoted(rest)) after the size")
        }
        guard !rest.contains(where: { $0 < 0x20 && $0 != tab || $0 == 0x7F }) else {
            throw .malformed("the chunk-size line \(quoted(line)) holds a control byte")
        }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
