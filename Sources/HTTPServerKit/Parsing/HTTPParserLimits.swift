import HTTPHandlerKit

/// Size limits a request parser enforces, in bytes.
public struct HTTPParserLimits: Sendable, Hashable {
    /// The longest request line accepted, without its CRLF; longer gives 414.
    public var maxRequestLineLength: Int
    /// The largest header section accepted (field lines with their line ends); larger gives 431.
    /// The same limit bounds a chunked body's trailer section.
    public var maxHeaderSize: Int
    /// The largest body accepted, declared or chunked; larger gives 413.
    public var maxBodySize: Int
    /// The longest chunk-size line accepted, extensions included; longer gives 400.
    public var maxChunkLineLength: Int

    /// Creates limits; the defaults are 8 KiB, 64 KiB, 8 MiB and 4 KiB.
    public init(
        maxRequestLineLength: Int = 8 * 1024, maxHeaderSize: Int = 64 * 1024, maxBodySize: Int = 8 * 1024 * 1024,
        maxChunkLineLength: Int = 4 * 1024
    ) {
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeaderSize = maxHeaderSize
        self.maxBodySize = maxBodySize
        self.maxChunkLineLength = maxChunkLineLength
    }
}
