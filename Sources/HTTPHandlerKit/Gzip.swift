import CZlib
import HTTPCore

/// gzip compression through zlib, and `Accept-Encoding` negotiation.
package enum Gzip {
    /// The container around the deflate stream: `gzip` (RFC 1952, `Content-Encoding: gzip`)
    /// or `zlib` (RFC 1950, what `Content-Encoding: deflate` means in RFC 9110 §8.4.1.2).
    package enum Wrapper: Sendable {
        case gzip
        case zlib
    }

    /// The bytes compressed in the gzip format (RFC 1952), or the zlib format, or nil if zlib fails.
    package static func compress(_ bytes: [UInt8], level: Int32 = 6, wrapper: Wrapper = .gzip) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 selects the zlib wrapper, 15 + 16 the gzip one.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, wrapper == .gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let result: Int32 = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether a request with these headers accepts a gzip-coded response (RFC 9110 §12.5.3):
    /// `gzip` or `*` listed with a non-zero weight, and `gzip` not refused with `q=0`.
    package static func isAccepted(by headers: HTTPHeaders) -> Bool {
        var gzipWeight: Bool?
        var anyWeight: Bool?
        for value in headers.values(name: "Accept-Encoding") {
            // Scalar by scalar: a combining mark after `,` or `;` must not hide it.
            for member in value[...].headerParts(separatedBy: ",") {
                let parts = member.headerParts(separatedBy: ";")
                let coding = parts[0].trimmingASCIISpaces()
                var accepted = true
                for parameter in parts.dropFirst() {
                    if let (name, weight) = parameter.splitOnce(at: "="),
                        name.trimmingASCIISpaces().equalsIgnoringASCIICase("q")
                    {
                        accepted = (Double(weight.trimmingASCIISpaces()) ?? 1) > 0
                    }
                }
                if coding.equalsIgnoringASCIICase("gzip") || coding.equalsIgnoringASCIICase("x-gzip") {
                    gzipWeight = accepted
                } else if coding == "*" {
                    anyWeight = accepted
                }
            }
        }
        return gzipWeight ?? anyWeight ?? false
    }
}
