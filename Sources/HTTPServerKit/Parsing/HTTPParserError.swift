import HTTPCore
import HTTPHandlerKit

/// Why a request was refused, with the status the server answers before closing.
///
/// Every case maps to one status (``status``); the server sends that status with
/// `Connection: close` and closes the connection, and no other connection is affected.
package enum HTTPParserError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request line is not `method SP target SP version` (RFC 9112 §3).
    case invalidRequestLine(found: String)
    /// The method is empty or holds a byte that is not a token character (RFC 9110 §9.1).
    case invalidMethod(found: String)
    /// The target is empty or holds a control, space or non-ASCII byte (RFC 9112 §3.2).
    case invalidTarget(found: String)
    /// The version is not `HTTP/DIGIT.DIGIT` (RFC 9112 §2.3).
    case invalidVersion(found: String)
    /// The version is well formed but not HTTP/1.0 or HTTP/1.1.
    case unsupportedVersion(found: String)
    /// A header line has no colon, an empty name, a non-token name, or white space before
    /// the colon (RFC 9112 §5.1); `line` counts from 1 at the request line.
    case invalidHeaderName(line: Int, found: String)
    /// A header value holds a control byte such as NUL or a bare CR (RFC 9110 §5.5).
    case invalidHeaderValue(line: Int, name: String)
    /// A header line starts with white space: obsolete line folding (RFC 9112 §5.2).
    case obsoleteLineFolding(line: Int)
    /// A CR not followed by LF ended or interrupted a line (RFC 9112 §2.2).
    case bareCarriageReturn(line: Int)
    /// An HTTP/1.1 request has no `Host` header (RFC 9112 §3.2).
    case missingHost
    /// A request has more than one `Host` header (RFC 9112 §3.2).
    case multipleHosts
    /// A `Host` value is not `uri-host [ ":" port ]`, such as `a b` or `a/b` (RFC 9112 §3.2,
    /// RFC 3986 §3.2.2).
    case invalidHost(found: String)
    /// A `Content-Length` value is not a decimal number that fits (RFC 9112 §6.3).
    case invalidContentLength(found: String)
    /// `Content-Length` values differ: a request smuggling attempt (RFC 9112 §6.3).
    case conflictingContentLengths(found: [String])
    /// Both `Content-Length` and `Transfer-Encoding` were sent: a request smuggling
    /// attempt (RFC 9112 §6.1).
    case contentLengthWithTransferEncoding
    /// `Transfer-Encoding` names a coding other than `chunked` (RFC 9112 §6.1: 501).
    case unsupportedTransferEncoding(found: String)
    /// `Transfer-Encoding` lists `chunked` twice, or not last, or comes on HTTP/1.0
    /// (RFC 9112 §6.1, §6.3).
    case invalidTransferEncoding(found: String)
    /// A chunk-size line is not hexadecimal digits with optional extensions (RFC 9112 §7.1);
    /// `found` is the first offending byte, or says the line is too long.
    case invalidChunkSize(found: String)
    /// Chunk data is not followed by CRLF (RFC 9112 §7.1).
    case invalidChunkTerminator
    /// The request line is longer than the limit, in bytes.
    case requestLineTooLong(limit: Int)
    /// The header section (or a chunked body's trailer section) is larger than the limit, in bytes.
    case headersTooLarge(limit: Int)
    /// The body is larger than the limit; `length` is the declared length when known.
    case bodyTooLarge(limit: Int, length: Int?)

    /// The response status that refuses a request with this error.
    package var status: HTTPStatus {
        switch self {
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedTransferEncoding: .notImplemented
        case .requestLineTooLong: .uriTooLong
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .contentTooLarge
        default: .badRequest
        }
    }

    package var description: String {
        switch self {
        case .invalidRequestLine(let found):
            "Invalid request line: expected 'METHOD SP TARGET SP HTTP/1.1', found '\(found)'"
        case .invalidMethod(let found): "Invalid method: expected a token, found '\(found)'"
        case .invalidTarget(let found): "Invalid request target: expected visible ASCII, found '\(found)'"
        case .invalidVersion(let found): "Invalid HTTP version: expected 'HTTP/1.1', found '\(found)'"
        case .unsupportedVersion(let found): "Unsupported HTTP version: expected HTTP/1.0 or HTTP/1.1, found '\(found)'"
        case .invalidHeaderName(let line, let found):
            "Line \(line): invalid header field: expected 'name: value', found '\(found)'"
        case .invalidHeaderValue(let line, let name):
            "Line \(line): header '\(name)' has a control character in its value"
        case .obsoleteLineFolding(let line): "Line \(line): obsolete line folding (a line starting with white space)"
        case .bareCarriageReturn(let line): "Line \(line): CR not followed by LF"
        case .missingHost: "Missing Host header: HTTP/1.1 requests must have one"
        case .multipleHosts: "More than one Host header"
        case .invalidHost(let found): "Invalid Host header: expected 'host' or 'host:port', found '\(found)'"
        case .invalidContentLength(let found): "Invalid Content-Length: expected a decimal number, found '\(found)'"
        case .conflictingContentLengths(let found):
            "Conflicting Content-Length values: found \(found.map { "'\($0)'" }.joined(separator: ", "))"
        case .contentLengthWithTransferEncoding: "Both Content-Length and Transfer-Encoding are present"
        case .unsupportedTransferEncoding(let found):
            "Unsupported Transfer-Encoding: expected 'chunked', found '\(found)'"
        case .invalidTransferEncoding(let found):
            "Invalid Transfer-Encoding: expected 'chunked' once and last on HTTP/1.1, found '\(found)'"
        case .invalidChunkSize(let found):
            "Invalid chunk size line: expected hexadecimal digits and extensions, found '\(found)'"
        case .invalidChunkTerminator: "Invalid chunk: expected CRLF after the chunk data"
        case .requestLineTooLong(let limit): "Request line longer than \(limit) bytes"
        case .headersTooLarge(let limit): "Header section larger than \(limit) bytes"
        case .bodyTooLarge(let limit, let length):
            if let length {
                "Body of \(length) bytes is larger than the limit of \(limit) bytes"
            } else {
                "Body larger than the limit of \(limit) bytes"
            }
        }
    }
}
