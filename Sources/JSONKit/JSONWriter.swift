/// How ``JSONValue/serialized(_:)`` lays out its text.
public struct JSONWriteOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Two-space indentation, one member or element a line, `"key": value`.
    public static let pretty = JSONWriteOptions(rawValue: 1)
    /// Object members sorted by key (UTF-8 byte order; members with equal keys keep their order).
    public static let sortedKeys = JSONWriteOptions(rawValue: 2)
    /// `/` written as `\/`, for text embedded in HTML.
    public static let escapeSlashes = JSONWriteOptions(rawValue: 4)
}

/// Writes ``JSONValue``s as JSON text, stable byte for byte: the same value and options
/// always give the same bytes.
///
/// Strings escape exactly `"`, `\`, control characters (as `\b \f \n \r \t` or `\u00XX`), and
/// the three line breaks YAML adds to JSON's (`\u0085`, `\u2028`, `\u2029`), so the text read
/// as YAML is the same value; everything else, non-ASCII included, is written as UTF-8. Numbers are written as kept
/// (``JSONNumber/text``).
public struct JSONWriter: Sendable {
    /// The layout options.
    public var options: JSONWriteOptions

    /// Creates a writer.
    public init(options: JSONWriteOptions = []) {
        self.options = options
    }

    /// The value's JSON text as UTF-8 bytes.
    public func bytes(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output)
        return output
    }

    /// Appends the value's JSON text to `output`.
    public func write(_ value: JSONValue, into output: inout [UInt8]) {
        write(value, indent: 0, into: &output)
    }

    private func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let flag): output.append(contentsOf: flag ? Array("true".utf8) : Array("false".utf8))
        case .int(let number): JSONWriter.writeDecimal(number, into: &output)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let text):
            JSONWriter.writeString(text, escapeSlashes: options.contains(.escapeSlashes), into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: [0x5B, 0x5D])
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                write(element, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                output.append(contentsOf: [0x7B, 0x7D])
                return
            }
            var members = object.members
            if options.contains(.sortedKeys) {
                // Stable sort by UTF-8 bytes so duplicate keys keep their relative order.
                members = members.enumerated().sorted { lhs, rhs in
                    let order = JSONWriter.compareUTF8(lhs.element.key, rhs.element.key)
                    return order == 0 ? lhs.offset < rhs.offset : order < 0
                }.map(\.element)
            }
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                JSONWriter.writeString(member.key, escapeSlashes: options.contains(.escapeSlashes), into: &output)
                output.append(UInt8(ascii: ":"))
                if options.contains(.pretty) { output.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `number` in decimal, its digits written straight into `output`.
    static func writeDecimal(_ number: Int64, into output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int64.min has one.
        var rest = number.magnitude
        // 24 bytes, room for the 19 digits of the largest magnitude.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
        }
        withUnsafeBytes(of: &digits) { buffer in
            output.append(contentsOf: buffer[(24 - count)..<24])
        }
    }

    @inline(__always)
    private func newline(_ indent: Int, into output: inout [UInt8]) {
        guard options.contains(.pretty) else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Appends `text` as a quoted, escaped JSON string.
    public static func writeString(_ text: String, escapeSlashes: Bool = false, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // The bytes are read from the string's storage and the runs that need no escape copied
        // whole: read one at a time through `String.UTF8View`'s index, they were 13 % of the
        // instructions of a stateful create and read of a 200-byte resource (cachegrind).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            writeEscaped(bytes, escapeSlashes: escapeSlashes, into: &output)
        }
        if done == nil {
            Array(text.utf8).withUnsafeBufferPointer { writeEscaped($0, escapeSlashes: escapeSlashes, into: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// For each byte, whether ``writeEscaped(_:escapeSlashes:into:)`` stops at it: bit 1 always
    /// (controls, `"`, `\`, and the lead bytes of NEL, U+2028 and U+2029), bit 2 when slashes
    /// are escaped. One look-up per byte, where seven comparisons were.
    private static let stops: [UInt8] = (0..<256).map { byte in
        switch byte {
        case 0..<0x20, 0x22, 0x5C, 0xC2, 0xE2: 1
        case 0x2F: 2
        default: 0
        }
    }

    private static func writeEscaped(
        _ bytes: UnsafeBufferPointer<UInt8>, escapeSlashes: Bool, into output: inout [UInt8]
    ) {
        let mask: UInt8 = escapeSlashes ? 3 : 1
        stops.withUnsafeBufferPointer { stops in
            writeEscaped(bytes, stops: stops, mask: mask, into: &output)
        }
    }

    private static func writeEscaped(
        _ bytes: UnsafeBufferPointer<UInt8>, stops: UnsafeBufferPointer<UInt8>, mask: UInt8,
        into output: inout [UInt8]
    ) {
        // The first byte not yet written.
        var run = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard stops[Int(byte)] & mask != 0 else {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
            index += 1
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case UInt8(ascii: "/"): output.append(contentsOf: [0x5C, 0x2F])
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            case 0xC2 where index < bytes.count && bytes[index] == 0x85:
                // NEL, U+0085: a line break to YAML, which folds it inside a quoted scalar.
                index += 1
                output.append(contentsOf: Array(#"\u0085"#.utf8))
            case 0xE2
            where index + 1 < bytes.count && bytes[index] == 0x80
                && (bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9):
                // U+2028 and U+2029: line breaks to YAML, as NEL is.
                let last = bytes[index + 1]
                index += 2
                output.append(contentsOf: Array((last == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8))
            default: output.append(byte)
            }
            run = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
    }

    /// Compares two strings by their UTF-8 bytes: negative, zero or positive.
    static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?) where a != b: return a < b ? -1 : 1
            default: continue
            }
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value's JSON text.
    public func serialized(_ options: JSONWriteOptions = []) -> String {
        String(decoding: JSONWriter(options: options).bytes(self), as: UTF8.self)
    }

    /// The value's JSON text as UTF-8 bytes.
    public func serializedBytes(_ options: JSONWriteOptions = []) -> [UInt8] {
        JSONWriter(options: options).bytes(self)
    }

    /// The compact JSON text.
    public var description: String { serialized() }
}
