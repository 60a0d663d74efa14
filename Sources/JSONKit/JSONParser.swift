/// A strict JSON parser (RFC 8259) over bytes, with positions in every error and a limit on
/// nesting depth.
///
/// ```swift
/// let parser = JSONParser(maxDepth: 64)
/// let value = try parser.parse(Array(#"{"a": [1, 2.0, "x"]}"#.utf8))
/// ```
///
/// It keeps integers and other numbers apart (``JSONValue/int(_:)`` vs
/// ``JSONValue/number(_:)``), key order and duplicate keys. A leading UTF-8 byte order mark is
/// skipped; anything after the value other than white space is an error.
public struct JSONParser: Sendable {
    /// The nesting depth allowed when none is given.
    public static let defaultMaxDepth = 512

    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int

    /// Creates a parser.
    public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Parses exactly one JSON value from the bytes.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var state = JSONParserState(bytes: bytes, maxDepth: maxDepth)
        return try state.parseDocument()
    }

    /// Parses exactly one JSON value from the bytes.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try parse(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from the bytes of a slice.
    public func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        try parse(Array(bytes))
    }

    /// Parses exactly one JSON value from the UTF-8 of a string.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        // A native string's UTF-8 is contiguous: parsed in place, with no copy.
        let result: Result<JSONValue, JSONParseError>? = text.utf8.withContiguousStorageIfAvailable { buffer in
            do throws(JSONParseError) {
                return .success(try parse(buffer))
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        return try parse(Array(text.utf8))
    }
}

extension JSONValue {
    /// Parses one JSON value from bytes; see ``JSONParser``.
    public init(parsing bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) {
        self = try JSONParser(maxDepth: maxDepth).parse(bytes)
    }

    /// Parses one JSON value from the UTF-8 of a string; see ``JSONParser``.
    public init(parsing text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) {
        self = try JSONParser(maxDepth: maxDepth).parse(text)
    }
}
