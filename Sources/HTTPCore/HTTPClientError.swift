/// Why a request got no HTTP response; the kind is for code, the message for people.
public struct HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in categories a caller acts on.
    public enum Kind: String, Hashable, Sendable {
        /// The URL could not be parsed or uses an unsupported scheme.
        case invalidURL
        /// The host name did not resolve.
        case couldNotResolve
        /// The TCP connection was refused or could not be made.
        case couldNotConnect
        /// The connect or total timeout ran out.
        case timedOut
        /// The TLS handshake or certificate check failed.
        case tls
        /// The peer closed or reset the connection before the response was complete.
        case connectionClosed
        /// The bytes received were not a valid HTTP response (or content coding).
        case malformedResponse
        /// The response body was larger than the transport's limit.
        case tooLarge
        /// The Swift task was cancelled.
        case cancelled
        /// Anything else the transport reported.
        case other
    }

    /// The category.
    public let kind: Kind
    /// The URL requested.
    public let url: String
    /// The transport's own message (libcurl's error buffer, for example).
    public let message: String
    /// libcurl's `CURLcode`, when the error came from libcurl.
    public let curlCode: Int?

    /// Creates an error.
    public init(kind: Kind, url: String, message: String, curlCode: Int? = nil) {
        self.kind = kind
        self.url = url
        self.message = message
        self.curlCode = curlCode
    }

    public var description: String {
        "\(url): \(message)"
    }
}
