#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer with a read and a write index, owned by one connection on one
/// loop. Positions stay valid when it grows, so queued writes can refer to them.
@usableFromInline
package final class ByteBuffer {
    /// The buffer's memory and indices, behind a pointer: a class's stored `var` is checked
    /// for exclusive access at run time on every read and write (the compiler cannot see
    /// every access to an inlinable class's properties), and a connection appends a head
    /// field by field, many accesses per response. Memory behind a pointer is not checked;
    /// the buffer is used by one loop's thread only.
    @usableFromInline
    struct State {
        @usableFromInline var base: UnsafeMutableRawPointer?
        @usableFromInline var capacity = 0
        @usableFromInline var readerIndex = 0
        @usableFromInline var writerIndex = 0

        @inlinable init() {}
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    @inlinable package var base: UnsafeMutableRawPointer? {
        get { state.pointee.base }
        set { state.pointee.base = newValue }
    }
    @inlinable package var capacity: Int {
        get { state.pointee.capacity }
        set { state.pointee.capacity = newValue }
    }
    @inlinable package var readerIndex: Int {
        get { state.pointee.readerIndex }
        set { state.pointee.readerIndex = newValue }
    }
    @inlinable package var writerIndex: Int {
        get { state.pointee.writerIndex }
        set { state.pointee.writerIndex = newValue }
    }

    @inlinable package init() {
        state = UnsafeMutablePointer.allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        free(base)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The number of bytes written and not yet consumed.
    @inlinable package var readableCount: Int { writerIndex - readerIndex }

    /// The unconsumed bytes.
    @inlinable package var readableBytes: UnsafeRawBufferPointer {
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + readerIndex, count: readableCount)
    }

    /// Makes room for at least `count` more bytes after the write index.
    @inlinable package func reserveWritable(_ count: Int) {
        guard capacity - writerIndex < count else { return }
        if readerIndex > 0 && readerIndex == writerIndex {
            readerIndex = 0
            writerIndex = 0
            if capacity >= count { return }
        }
        var newCapacity = max(capacity, 256)
        while newCapacity - writerIndex < count { newCapacity *= 2 }
        guard let grown = realloc(base, newCapacity) else { return }
        base = grown
        capacity = newCapacity
    }

    /// The free space after the write index, to read into; call ``didWrite(_:)`` after.
    @inlinable package func writableBytes(minimum: Int) -> UnsafeMutableRawBufferPointer {
        reserveWritable(minimum)
        guard let base else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
        return UnsafeMutableRawBufferPointer(start: base + writerIndex, count: capacity - writerIndex)
    }

    /// Records that `count` bytes were written into ``writableBytes(minimum:)``.
    @inlinable package func didWrite(_ count: Int) {
        writerIndex += count
    }

    /// Appends bytes.
    @inlinable package func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserveWritable(bytes.count)
        guard let base else { return }
        (base + writerIndex).copyMemory(from: source, byteCount: bytes.count)
        writerIndex += bytes.count
    }

    /// Appends the bytes of an array.
    @inlinable package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 of a string.
    @inlinable package func append(_ string: String) {
        // A native string lends its bytes in place; only a bridged one is copied.
        if string.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) == nil {
            var copy = string
            copy.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends a decimal number.
    @inlinable package func appendDecimal(_ value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var remaining = value < 0 ? 0 : value
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: 48 + remaining % 10)
                remaining /= 10
            } while remaining > 0 && index > 0
            append(UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    /// Appends a number in lowercase hexadecimal (chunk sizes).
    @inlinable package func appendHex(_ value: Int) {
        let digits = Array(String(value, radix: 16).utf8)
        append(digits)
    }

    /// The bytes at absolute positions, valid until the buffer next changes.
    @inlinable package func bytes(from start: Int, to end: Int) -> UnsafeRawBufferPointer {
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// Consumes bytes from the read index; an emptied buffer rewinds to the start.
    @inlinable package func consume(_ count: Int) {
        readerIndex += count
        if readerIndex >= writerIndex {
            readerIndex = 0
            writerIndex = 0
        }
    }

    /// Moves unconsumed bytes to the start, so positions before them can be reused.
    @inlinable package func compact() {
        guard readerIndex > 0, let base else { return }
        let count = readableCount
        if count > 0 { base.copyMemory(from: base + readerIndex, byteCount: count) }
        readerIndex = 0
        writerIndex = count
    }

    /// Forgets all bytes and frees the memory when more than `limit` bytes are held.
    @inlinable package func clear(releasingAbove limit: Int) {
        readerIndex = 0
        writerIndex = 0
        if capacity > limit {
            free(base)
            base = nil
            capacity = 0
        }
    }
}

/// Immutable bytes at a stable address, shared by prepared responses and queued writes.
package final class ByteStorage: @unchecked Sendable {
    // Safe to share: the memory is written once in init and only read afterwards, and it
    // is freed only in deinit, when no reference is left.
    package let bytes: UnsafeRawBufferPointer

    package init(_ source: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 16)
        source.withUnsafeBytes {
            if let base = $0.baseAddress { memory.baseAddress?.copyMemory(from: base, byteCount: $0.count) }
        }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<source.count])
        allocation = memory
    }

    /// `count` bytes written by `initialize`, which must set every one of them.
    package init(count: Int, _ initialize: (UnsafeMutableRawBufferPointer) -> Void) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        initialize(UnsafeMutableRawBufferPointer(rebasing: memory[0..<count]))
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<count])
        allocation = memory
    }

    private let allocation: UnsafeMutableRawBufferPointer

    deinit {
        allocation.deallocate()
    }

    package var count: Int { bytes.count }
}
