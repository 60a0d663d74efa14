import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes waiting to be sent on one connection, in order: small pieces are copied into
/// one owned buffer, large immutable bodies are referred to, and everything goes out with
/// one `sendmsg` (writev with `MSG_NOSIGNAL`) per flush.
struct OutboundQueue {
    /// Bodies at least this large are sent from their own storage instead of being copied.
    static let referenceThreshold = 16 * 1024

    enum Segment {
        case owned(start: Int, end: Int)
        case shared(ByteStorage, start: Int, end: Int)
    }

    let buffer = ByteBuffer()
    private(set) var segments: [Segment] = []
    private(set) var pendingBytes = 0

    var isEmpty: Bool { pendingBytes == 0 }

    /// Queues a copy of the bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let start = buffer.writerIndex
        buffer.append(bytes)
        noteOwned(start: start, end: buffer.writerIndex)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Queues bytes written by `body` straight into the owned buffer.
    mutating func appendOwned(_ body: (ByteBuffer) -> Void) {
        let start = buffer.writerIndex
        body(buffer)
        noteOwned(start: start, end: buffer.writerIndex)
    }

    /// Queues a range of shared storage, by reference when large, else by copy.
    mutating func append(_ storage: ByteStorage, range: Range<Int>) {
        guard !range.isEmpty else { return }
        if range.count < Self.referenceThreshold {
            append(UnsafeRawBufferPointer(rebasing: storage.bytes[range]))
        } else {
            segments.append(.shared(storage, start: range.lowerBound, end: range.upperBound))
            pendingBytes += range.count
        }
    }

    private mutating func noteOwned(start: Int, end: Int) {
        guard end > start else { return }
        pendingBytes += end - start
        if case .owned(let lastStart, let lastEnd) = segments.last, lastEnd == start {
            segments[segments.count - 1] = .owned(start: lastStart, end: end)
        } else {
            segments.append(.owned(start: start, end: end))
        }
    }

    /// What one attempt to send did.
    enum FlushResult {
        case done, wouldBlock, failed(Int32)
    }

    /// Sends as much as the socket takes. Uses `iovecs` as scratch space.
    mutating func flush(to descriptor: Int32, iovecs: UnsafeMutablePointer<iovec>, iovecCapacity: Int) -> FlushResult {
        while pendingBytes > 0 {
            var count = 0
            for segment in segments where count < iovecCapacity {
                let bytes = self.bytes(of: segment)
                iovecs[count] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
                count += 1
            }
            let written = Socket.send(descriptor, vectors: iovecs, count: count)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
                return .failed(error)
            }
            consume(written)
        }
        return .done
    }

    /// Sends as much as a TLS session takes: each write is one record, so small pieces are
    /// first gathered into `scratch` (a record's worth), which OpenSSL accepts at a new place
    /// when a write is tried again.
    mutating func flush(through stream: any ConnectionLayer, scratch: UnsafeMutableRawBufferPointer) -> FlushResult {
        while pendingBytes > 0 {
            let first = bytes(of: segments[0])
            var source = UnsafeRawBufferPointer(first)
            if segments.count > 1 && first.count < scratch.count {
                var filled = 0
                for segment in segments where filled < scratch.count {
                    let piece = bytes(of: segment)
                    let taken = min(piece.count, scratch.count - filled)
                    UnsafeMutableRawBufferPointer(rebasing: scratch[filled..<(filled + taken)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: piece[0..<taken]))
                    filled += taken
                }
                source = UnsafeRawBufferPointer(rebasing: scratch[0..<filled])
            }
            let written = stream.write(source.baseAddress, source.count)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                if error == EAGAIN { return stream.isEstablished ? .wouldBlock : .failed(error) }
                return .failed(error)
            }
            consume(written)
        }
        return .done
    }

    private func bytes(of segment: Segment) -> UnsafeRawBufferPointer {
        switch segment {
        case .owned(let start, let end): buffer.bytes(from: start, to: end)
        case .shared(let storage, let start, let end): UnsafeRawBufferPointer(rebasing: storage.bytes[start..<end])
        }
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        pendingBytes -= written
        var finished = 0
        for index in segments.indices {
            guard remaining > 0 else { break }
            switch segments[index] {
            case .owned(let start, let end):
                if end - start <= remaining {
                    remaining -= end - start
                    finished += 1
                } else {
                    segments[index] = .owned(start: start + remaining, end: end)
                    remaining = 0
                }
            case .shared(let storage, let start, let end):
                if end - start <= remaining {
                    remaining -= end - start
                    finished += 1
                } else {
                    segments[index] = .shared(storage, start: start + remaining, end: end)
                    remaining = 0
                }
            }
        }
        if finished == segments.count {
            segments.removeAll(keepingCapacity: true)
            buffer.clear(releasingAbove: 64 * 1024)
        } else if finished > 0 {
            segments.removeFirst(finished)
        }
    }

    /// Drops everything queued.
    mutating func removeAll() {
        segments.removeAll()
        pendingBytes = 0
        buffer.clear(releasingAbove: 0)
    }
}
