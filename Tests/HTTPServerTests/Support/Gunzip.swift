import CZlib

/// Decompresses gzip bytes with zlib, for checking what the server sent.
func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        return nil
    }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var input = bytes
    let status: Int32 = input.withUnsafeMutableBytes { raw in
        stream.next_in = raw.bindMemory(to: Bytef.self).baseAddress
        stream.avail_in = uInt(raw.count)
        var result = Z_OK
        while result == Z_OK {
            result = chunk.withUnsafeMutableBytes { out in
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return inflate(&stream, Z_NO_FLUSH)
            }
            output += chunk[0..<(chunk.count - Int(stream.avail_out))]
        }
        return result
    }
    return status == Z_STREAM_END ? output : nil
}
