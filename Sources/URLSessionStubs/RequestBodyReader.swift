import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a request's body whole, wherever URLSession put it: `httpBody`, `httpBodyStream`
/// (Darwin hands URLProtocols a stream instead of `httpBody`, and uploads come as streams),
/// or, on FoundationNetworking, the upload body the task keeps to itself.
enum RequestBodyReader {
    /// The body's bytes; empty when there is none.
    static func body(of request: URLRequest, task: URLSessionTask?, limit: Int) throws(URLError) -> [UInt8] {
        if let data = request.httpBody { return try bounded(Array(data), limit: limit) }
        if let stream = request.httpBodyStream { return try read(stream, limit: limit) }
        #if canImport(FoundationNetworking)
        // Only an upload task keeps its body apart from the request.
        if let task = task as? URLSessionUploadTask, let upload = try uploadBody(of: task, limit: limit) {
            return upload
        }
        #endif
        return []
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

    #if canImport(FoundationNetworking)
    /// The body FoundationNetworking keeps for an upload task (`uploadTask(with:from:)`,
    /// `upload(for:from:)`, `fromFile:`) in the task's stored `knownBody`, which its own
    /// protocol reads and a URLProtocol cannot reach otherwise; reflection reads it.
    private static func uploadBody(of task: URLSessionTask, limit: Int) throws(URLError) -> [UInt8]? {
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == "knownBody" }) {
                return try bytes(ofBody: child.value, limit: limit)
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The bytes of a `URLSessionTask._Body?`: `.data(DispatchData)`, `.file(URL)`, `.stream(InputStream)`.
    private static func bytes(ofBody body: Any, limit: Int) throws(URLError) -> [UInt8]? {
        var value = body
        var mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return nil }
            value = wrapped
            mirror = Mirror(reflecting: value)
        }
        guard let payload = mirror.children.first?.value else { return nil }
        if let data = payload as? DispatchData { return try bounded(Array(data), limit: limit) }
        if let stream = payload as? InputStream { return try read(stream, limit: limit) }
        if let url = payload as? URL {
            guard let stream = InputStream(url: url) else { throw URLError(.fileDoesNotExist) }
            return try read(stream, limit: limit)
        }
        return nil
    }
    #endif
}
