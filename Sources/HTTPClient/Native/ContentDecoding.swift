import CZlib

/// Decodes a `gzip` or `deflate` response body (what libcurl does for a transfer that asked
/// for them), within a size limit, so a small body cannot expand without bound.
package enum ContentDecoding {
    /// The coding a `Content-Encoding` value names that can be decoded, or nil (no coding,
    /// several, or one not decoded here, such as `br`: the body is then passed on as it came).
    package static func decodable(_ value: String?) -> String? {
        guard let value else { return nil }
        let coding = value.trimmingASCIISpaces()
        for name in ["gzip", "x-gzip", "deflate"] where coding.equalsIgnoringASCIICase(name) { return name }
        return nil
    }

    /// The decoded bytes, or why they cannot be had.
    package static func decode(_ body: [UInt8], coding: String, limit: Int) -> Result<[UInt8], HTTPResponseError> {
        // 15 + 32: a zlib or gzip header, told apart by zlib. `deflate` sent raw (no zlib
        // header), as some servers do, is tried again as such (-15).
        let first = inflate(body, windowBits: 15 + 32, limit: limit)
        if case .failure(.malformed) = first, coding == "deflate" {
            return inflate(body, windowBits: -15, limit: limit)
        }
        return first
    }

    private static func inflate(_ body: [UInt8], windowBits: Int32, limit: Int) -> Result<[UInt8], HTTPResponseError> {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .failure(.malformed("zlib could not start decoding"))
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(body.count * 4, 1024)))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return body.withUnsafeBytes { input -> Result<[UInt8], HTTPResponseError> in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBytes { out -> (Int32, Int) in
                    stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(out.count)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (result, out.count - Int(stream.avail_out))
                }
                guard output.count + produced <= limit else { return .failure(.tooLarge(limit: limit)) }
                output.append(contentsOf: chunk[..<produced])
                switch result {
                case Z_STREAM_END: return .success(output)
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.malformed("the \(windowBits < 0 ? "deflate" : "gzip/deflate") body ends early"))
                case Z_BUF_ERROR where produced > 0: continue
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(result)"
                    return .failure(.malformed("the body does not decode: \(reason)"))
                }
            }
        }
    }
}
