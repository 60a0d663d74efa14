import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a request's body whole, where URLSession puts it for a URLProtocol: `httpBody` or
/// `httpBodyStream` (Darwin hands URLProtocols a stream instead of `httpBody`, and an upload
/// task's data or file as a stream too).
///
/// FoundationNetworking keeps an upload task's body (`uploadTask(with:from:)`,
/// `upload(for:from:)`, `fromFile:`) to itself, out of the request a URLProtocol gets. An
/// upload task whose request has neither field there fails with
/// ``uploadBodyUnavailable``, rather than reaching the handler with an empty body.
enum RequestBodyReader {
    /// The body's bytes; empty when there is none.
    static func body(of request: URLRequest, task: URLSessionTask?, limit: Int) throws(URLError) -> [UInt8] {
        if let data = request.httpBody { return try bounded(Array(data), limit: limit) }
        if let stream = request.httpBodyStream { return try read(stream, limit: limit) }
        #if canImport(FoundationNetworking)
        if task is URLSessionUploadTask { throw uploadBodyUnavailable }
        #endif
        return []
    }

    /// What an upload task fails with on FoundationNetworking when its body is out of reach.
    static var uploadBodyUnavailable: URLError {
        URLError(
            .requestBodyStreamExhausted,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "StubURLSessionHost cannot read this upload task's body: FoundationNetworking keeps the body "
                    + "of uploadTask(with:from:), upload(for:from:) and upload(for:fromFile:) from URLProtocols. "
                    + "Set the body as the request's httpBody or httpBodyStream (and upload that request), "
                    + "or send it with data(for:)"
            ])
    }

    private static func bounded(_ bytes: [UInt8], limit: Int) throws(URLError) -> [UInt8] {
        guard bytes.count <= limit else { throw URLError(.dataLengthExceedsMaximum) }
        return bytes
    }

    /// Reads `stream` to its end, at most `limit` bytes.
    static func read(_ stream: InputStream, limit: Int) throws(URLError) -> [UInt8] {
        if stream.streamStatus == .notOpen { stream.open() }
        defer { stream.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return -1 }
                return stream.read(base, maxLength: buffer.count)
            }
            if count == 0 { return bytes }
            guard count > 0 else { throw URLError(.requestBodyStreamExhausted) }
            guard bytes.count + count <= limit else { throw URLError(.dataLengthExceedsMaximum) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
