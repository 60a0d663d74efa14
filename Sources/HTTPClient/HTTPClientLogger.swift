import HTTPCore

/// Receives what a transport did, rendered for people: each request as a curl command
/// line you can paste into a shell, each response as a short summary.
///
/// Off unless given to a transport's configuration. Credentials never reach the log: the
/// values of ``redactedHeaders`` are replaced with `<redacted>`.
///
/// ```swift
/// let logger = HTTPClientLogger { entry in writeError(entry.description) }
/// let transport = CurlTransport(configuration: .init(logger: logger))
/// ```
public struct HTTPClientLogger: Sendable {
    /// Header names whose values are never logged.
    public static let redactedHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The most body bytes shown in a log line; longer bodies are summarised by size.
    public var bodyLimit: Int
    /// Whether response summaries list the response header fields.
    public var includesResponseHeaders: Bool
    private let sink: @Sendable (HTTPClientLogEntry) -> Void

    /// Creates a logger that hands each entry to `sink`.
    public init(
        bodyLimit: Int = 1024, includesResponseHeaders: Bool = false,
        _ sink: @escaping @Sendable (HTTPClientLogEntry) -> Void
    ) {
        self.bodyLimit = bodyLimit
        self.includesResponseHeaders = includesResponseHeaders
        self.sink = sink
    }

    /// Logs a request about to be sent.
    public func log(request: HTTPClientRequest, compressed: Bool = true) {
        sink(.request(request, text: Self.curlCommand(for: request, compressed: compressed, bodyLimit: bodyLimit)))
    }

    /// Logs a response that arrived for `request`.
    public func log(response: HTTPClientResponse, for request: HTTPClientRequest) {
        var text = Self.summary(of: response, for: request)
        if includesResponseHeaders {
            for field in response.headers {
                text += "\n< \(field.name): \(Self.loggableValue(of: field))"
            }
        }
        sink(.response(response, text: text))
    }

    /// Logs a request that got no response.
    public func log(error: HTTPClientError, for request: HTTPClientRequest) {
        sink(.failure(error, text: "\(request.method) \(request.url) failed: \(error.message)"))
    }

    /// The request as a shell-quoted curl command line, credentials redacted.
    ///
    /// `compressed` adds `--compressed`, which is what a transport that decodes gzip sends.
    public static func curlCommand(
        for request: HTTPClientRequest, compressed: Bool = true, bodyLimit: Int = 1024
    )
        -> String
    {
        var words = ["curl"]
        if request.method == .head {
            words.append("--head")
        } else {
            // curl infers GET without a body and POST with one; anything else needs -X.
            let implied: HTTPMethod = request.body == nil ? .get : .post
            if request.method != implied { words += ["-X", shellQuoted(request.method.rawValue)] }
        }
        if compressed { words.append("--compressed") }
        words.append(shellQuoted(request.url))
        for field in request.headers {
            words += ["-H", shellQuoted("\(field.name): \(loggableValue(of: field))")]
        }
        if let body = request.body {
            if body.count <= bodyLimit, let text = String(validating: body, as: UTF8.self) {
                words += ["--data-binary", shellQuoted(text)]
            } else {
                words += ["--data-binary", shellQuoted("<\(body.count) bytes not shown>")]
            }
        }
        return words.joined(separator: " ")
    }

    /// One line: status, version, size, media type, coding, time and what was asked.
    public static func summary(of response: HTTPClientResponse, for request: HTTPClientRequest) -> String {
        var parts = ["\(response.status) \(response.version)", "\(response.body.count) bytes"]
        if let mediaType = response.mediaType { parts.append(mediaType) }
        if let coding = response.contentEncoding { parts.append("(\(coding))") }
        parts.append("in \(formatted(response.timings.total))")
        return parts.joined(separator: ", ") + " for \(request.method) \(request.url)"
    }

    static func loggableValue(of field: HTTPHeaders.Field) -> String {
        redactedHeaders.contains(field.name.lowercased()) ? "<redacted>" : field.value
    }

    /// The word in single quotes, safe for a POSIX shell.
    static func shellQuoted(_ word: String) -> String {
        let safe = word.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
                UInt8(ascii: "@"), UInt8(ascii: "="), UInt8(ascii: ","), UInt8(ascii: "+"):
                true
            default: false
            }
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// A duration as `12.3 ms` or `1.25 s`.
    static func formatted(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        if micros < 1_000_000 {
            let tenths = (micros + 50) / 100
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        let hundredths = (micros + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}

/// One thing a transport logged, with its text ready to print.
public enum HTTPClientLogEntry: Sendable, CustomStringConvertible {
    /// A request about to be sent; the text is a curl command.
    case request(HTTPClientRequest, text: String)
    /// A response that arrived; the text is a one-line summary.
    case response(HTTPClientResponse, text: String)
    /// A request that got no response.
    case failure(HTTPClientError, text: String)

    /// The text to print.
    public var description: String {
        switch self {
        case .request(_, let text): text
        case .response(_, let text): text
        case .failure(_, let text): text
        }
    }
}
