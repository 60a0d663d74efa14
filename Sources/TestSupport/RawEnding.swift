/// How a connection ended, as ``RawClient/readToEnd()`` and ``RawClient/ending()`` saw it,
/// with the bytes that came before the end.
package enum RawEnding: Equatable, Sendable {
    /// The server closed the connection cleanly (FIN) after these bytes.
    case closed([UInt8])
    /// The connection was reset (RST) after these bytes.
    case reset([UInt8])
    /// The read timeout passed with the connection still open, after these bytes.
    case timedOut([UInt8])

    /// The bytes that came before the end.
    package var bytes: [UInt8] {
        switch self {
        case .closed(let bytes), .reset(let bytes), .timedOut(let bytes): bytes
        }
    }

    /// The bytes decoded as UTF-8.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the connection ended (closed or reset), rather than the timeout passing.
    package var ended: Bool {
        if case .timedOut = self { return false }
        return true
    }
}
