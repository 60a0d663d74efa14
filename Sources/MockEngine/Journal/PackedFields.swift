import HTTPCore

/// Strings, numbers, header fields and bytes kept in one array: what a journal entry keeps of a
/// request and of a proxied response (URLs, header fields, the body, the status and timings) is
/// one allocation instead of one per field, made while the request is hot and freed as one when
/// the entry leaves the ring 10,000 requests later. Read back (by the admin API) in the order
/// written, it gives the same values.
///
/// Layout: a number as LEB128; a string or bytes as their length then the bytes; header fields
/// as their count then each name and value.
struct PackedFields: Sendable {
    private let storage: [UInt8]

    /// Packs what `write` appends, in order (`write` runs twice: once to size the array).
    init(_ write: (inout Writer) -> Void) {
        var measure = Writer(measuring: true)
        write(&measure)
        var writer = Writer(measuring: false)
        writer.storage.reserveCapacity(measure.size)
        write(&writer)
        storage = writer.storage
    }

    /// The bytes kept.
    var byteCount: Int { storage.count }

    /// A reader from the first value.
    var reader: Reader { Reader(storage: storage) }

    /// Appends values; sizes them only, when measuring.
    struct Writer {
        fileprivate var storage: [UInt8] = []
        fileprivate let measuring: Bool
        fileprivate var size = 0

        fileprivate init(measuring: Bool) { self.measuring = measuring }

        mutating func append(_ number: UInt64) {
            if measuring {
                size += Self.lengthSize(number)
                return
            }
            var rest = number
            while rest >= 0x80 {
                storage.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            storage.append(UInt8(rest))
        }

        mutating func append(_ number: Int) { append(UInt64(bitPattern: Int64(number))) }

        mutating func append(_ number: Int64) { append(UInt64(bitPattern: number)) }

        mutating func append(_ string: String) {
            let count = string.utf8.count
            append(count)
            if measuring { size += count } else { storage.append(contentsOf: string.utf8) }
        }

        mutating func append(_ bytes: [UInt8]) {
            append(bytes.count)
            if measuring { size += bytes.count } else { storage.append(contentsOf: bytes) }
        }

        mutating func append(_ headers: HTTPHeaders) {
            append(headers.fields.count)
            for field in headers.fields {
                append(field.name)
                append(field.value)
            }
        }

        private static func lengthSize(_ number: UInt64) -> Int {
            var size = 1
            var rest = number >> 7
            while rest > 0 {
                size += 1
                rest >>= 7
            }
            return size
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

        mutating func int64() -> Int64 { Int64(bitPattern: number()) }

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

        mutating func headers() -> HTTPHeaders {
            HTTPHeaders(
                (0..<int()).map { _ in
                    let name = string()
                    return HTTPHeaders.Field(name: name, value: string())
                })
        }
    }
}
