import HTTPCore

/// Strings, numbers, header fields and bytes kept in one array: what a journal entry keeps of a
/// request and of a proxied response (URLs, header fields, the body, the status and timings) is
/// one allocation instead of one per field, made while the request is hot and freed as one when
/// the entry leaves the ring 10,000 requests later. Read back (by the admin API) in the order
/// written, it gives the same values.
///
/// Layout: a number as LEB128; a string or bytes as their length then the bytes; header fields
/// as their count then each name and value; a raw value (a `Duration`) as its bytes in memory.
struct PackedFields: Sendable {
    private let storage: [UInt8]

    /// Packs what `write` appends, in order (`write` runs twice: once to size the array, once
    /// to fill it).
    init(_ write: (inout Writer) -> Void) {
        var measure = Writer(base: nil)
        write(&measure)
        storage = [UInt8](unsafeUninitializedCapacity: measure.size) { buffer, count in
            var writer = Writer(base: buffer.baseAddress)
            write(&writer)
            count = writer.size
        }
    }

    /// The bytes kept.
    var byteCount: Int { storage.count }

    /// A reader from the first value.
    var reader: Reader { Reader(storage: storage) }

    /// Appends values at `base`, or only counts their size when there is none. `PackedFields`
    /// makes `base` as large as the measuring pass counted, for the same appends.
    struct Writer {
        private let base: UnsafeMutablePointer<UInt8>?
        fileprivate private(set) var size = 0

        fileprivate init(base: UnsafeMutablePointer<UInt8>?) { self.base = base }

        mutating func append(_ number: UInt64) {
            var rest = number
            while rest >= 0x80 {
                base?[size] = UInt8(truncatingIfNeeded: rest) | 0x80
                size += 1
                rest >>= 7
            }
            base?[size] = UInt8(rest)
            size += 1
        }

        mutating func append(_ number: Int) { append(UInt64(bitPattern: Int64(number))) }

        mutating func append(_ string: String) {
            guard base != nil else {
                // Measuring: the length and the bytes, no copy.
                let count = string.utf8.count
                append(count)
                size += count
                return
            }
            // In place for a native or small string (no copy, no retain); a bridged one is copied.
            if string.utf8.withContiguousStorageIfAvailable({ append(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                var copy = string
                copy.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
            }
        }

        mutating func append(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { append(bytes: $0) }
        }

        mutating func append(_ headers: HTTPHeaders) {
            append(headers.fields.count)
            for field in headers.fields {
                append(field.name)
                append(field.value)
            }
        }

        /// Appends a value's bytes as they lie in memory (the value is read back in this process only).
        mutating func append<Value: BitwiseCopyable>(raw value: Value) {
            withUnsafeBytes(of: value) { copy($0) }
        }

        private mutating func append(bytes: UnsafeRawBufferPointer) {
            append(bytes.count)
            copy(bytes)
        }

        private mutating func copy(_ bytes: UnsafeRawBufferPointer) {
            if let base, let source = bytes.baseAddress {
                UnsafeMutableRawPointer(base + size).copyMemory(from: source, byteCount: bytes.count)
            }
            size += bytes.count
        }
    }

    /// Reads what a `Writer` appended, in the same order. The storage is only ever written by a
    /// `Writer`, so its lengths always lie within it.
    struct Reader {
        fileprivate let storage: [UInt8]
        private var offset = 0

        fileprivate init(storage: [UInt8]) { self.storage = storage }

        mutating func number() -> UInt64 {
            var number: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = storage[offset]
                offset += 1
                number |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return number }
                shift += 7
            }
        }

        mutating func int() -> Int { Int(truncatingIfNeeded: Int64(bitPattern: number())) }

        mutating func string() -> String {
            let count = int()
            defer { offset += count }
            return String(decoding: storage[offset..<offset + count], as: UTF8.self)
        }

        mutating func bytes() -> [UInt8] {
            let count = int()
            defer { offset += count }
            return Array(storage[offset..<offset + count])
        }

        /// Reads a value `append(raw:)` wrote.
        mutating func raw<Value: BitwiseCopyable>(_ type: Value.Type) -> Value {
            let size = MemoryLayout<Value>.size
            defer { offset += size }
            return storage.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: type) }
        }

        mutating func headers() -> HTTPHeaders {
            HTTPHeaders(
                (0..<int()).map { _ in
                    let name = string()
                    return HTTPHeaders.Field(name: name, value: string())
                })
        }
    }
}
