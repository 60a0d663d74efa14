/// Finds the byte ranges of a top-level JSON array's elements without building values, so a
/// large array can be handled one element at a time.
///
/// It tracks only strings (with escapes) and nesting depth; it is not a validator. Bytes that
/// are not an array, or are cut short, give nil and the caller falls back to the whole body.
///
/// ```swift
/// JSONArraySplitter.elementRanges(in: Array(#"[1, {"a": [2]}, "x"]"#.utf8))  // [1..<2, 4..<14, 16..<19]
/// ```
package enum JSONArraySplitter {
    /// The ranges of the elements (white space trimmed), or nil when the bytes are not one
    /// complete top-level array.
    package static func elementRanges(in bytes: [UInt8]) -> [Range<Int>]? {
        bytes.withUnsafeBufferPointer { elementRanges(in: $0) }
    }

    /// The ranges of the elements (white space trimmed), or nil when the bytes are not one
    /// complete top-level array.
    package static func elementRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        var index = skipSpace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var ranges: [Range<Int>] = []
        var depth = 0
        var start = -1
        var end = -1
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    end = index + 1
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            case UInt8(ascii: "\""):
                if start < 0 { start = index }
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if start < 0 { start = index }
                depth += 1
            case UInt8(ascii: "]") where depth == 0:
                if start >= 0 {
                    ranges.append(start..<end)
                } else if !ranges.isEmpty {
                    return nil  // a trailing comma
                }
                return skipSpace(bytes, from: index + 1) == bytes.count ? ranges : nil
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                end = index + 1
            case UInt8(ascii: ",") where depth == 0:
                guard start >= 0 else { return nil }
                ranges.append(start..<end)
                start = -1
            default:
                if start < 0 { start = index }
                end = index + 1
            }
            index += 1
        }
        return nil
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count,
            bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n")
                || bytes[index] == UInt8(ascii: "\r") || bytes[index] == UInt8(ascii: "\t")
        {
            index += 1
        }
        return index
    }
}
