import HTTPCore
import JSONKit
import StubFormat

/// A mapping made from an exchange, with the body it would rather keep in `__files/`.
struct RecordedMapping: Sendable {
    var mapping: StubMapping
    /// The body to write to `__files/` (the mapping then names it), when it is large or binary
    /// and the recording writes files; the mapping holds the body inline meanwhile.
    var bodyFile: PendingBodyFile?
}

/// A body waiting to be written to `__files/`.
struct PendingBodyFile: Sendable, Hashable {
    let bytes: [UInt8]
    /// The file extension its media type suggests (`json`, `html`, `bin`).
    let fileExtension: String
}

/// Turns exchanges into WireMock mappings: the request matched by method, URL, captured
/// headers and body; the response with hop-by-hop, framing, `Date` and redacted headers
/// dropped, the body decoded, JSON kept as `jsonBody` when that replays byte for byte.
package struct RecordedMappingBuilder: Sendable {
    /// The metadata every recorded mapping carries; a file whose mappings all carry it (for
    /// the same request) is the recorder's to refresh, any other file is never overwritten.
    static let marker: JSONObject = ["petmock": ["recorded": true]]

    let configuration: RecordingConfiguration

    /// Whether the mapping carries the recorder's marker.
    static func isRecorded(_ mapping: StubMapping) -> Bool {
        mapping.metadata?["petmock"]?["recorded"] == .bool(true)
    }

    /// The bytes that identify a request for de-duplication and ids: method, URL, captured
    /// headers and body.
    func key(for exchange: RecordedExchange) -> [UInt8] {
        var key = Array("\(exchange.method.rawValue) \(exchange.url)\n".utf8)
        for header in capturedHeaders(exchange) {
            key += Array("\(header.name): \(header.value)\n".utf8)
        }
        key.append(0)
        key += exchange.body
        return key
    }

    private func capturedHeaders(_ exchange: RecordedExchange) -> [(name: String, value: String)] {
        configuration.capturedHeaders.compactMap { captured in
            guard !configuration.isRedacted(captured.name), let value = exchange.headers.first(name: captured.name)
            else { return nil }
            return (captured.name, value)
        }
    }

    /// The request pattern: method and exact URL, captured headers, and the body as WireMock's
    /// recorder matches it (JSON loosely, text exactly, bytes exactly).
    func requestPattern(for exchange: RecordedExchange) -> RequestPattern {
        var pattern = RequestPattern(method: exchange.method, url: .url(exchange.url))
        pattern.headers = capturedHeaders(exchange).map { header in
            let caseInsensitive =
                configuration.capturedHeaders.first { $0.name.equalsIgnoringASCIICase(header.name) }?.caseInsensitive
                ?? false
            return NamedMatcher(header.name, .equalTo(header.value, caseInsensitive: caseInsensitive))
        }
        if !exchange.body.isEmpty {
            if let json = try? JSONValue(parsing: exchange.body) {
                pattern.bodyPatterns = [.equalToJson(json, ignoreArrayOrder: true, ignoreExtraElements: true)]
            } else if let text = String(validating: exchange.body, as: UTF8.self) {
                pattern.bodyPatterns = [.equalTo(text)]
            } else {
                pattern.bodyPatterns = [.binaryEqualTo(exchange.body)]
            }
        }
        return pattern
    }

    /// The mapping for an exchange, or nil for a failure that is not to be recorded.
    func mapping(
        for exchange: RecordedExchange, id: String, name: String, extractBodies: Bool
    ) -> RecordedMapping? {
        var bodyFile: PendingBodyFile?
        let response: ResponseDefinition
        switch exchange.upstream.reply {
        case .response(let status, _, let body):
            guard let upstream = exchange.upstream.response else { return nil }
            let head = HTTPClientResponseHead(headers: upstream.headers, decoded: upstream.contentEncoding != nil)
            let headers = HeaderRules.recordedResponseHeaders(head, configuration: configuration)
            let standard = HTTPStatus(code: status.code).reasonPhrase
            let (recordedBody, file) = self.body(body, mediaType: upstream.mediaType, extract: extractBodies)
            bodyFile = file
            response = ResponseDefinition(
                status: status.code, statusMessage: status.reasonPhrase == standard ? nil : status.reasonPhrase,
                headers: headers, body: recordedBody)
        case .gatewayError(let status, let kind, let message):
            // A cancelled request never reached an answer the API gave: nothing to replay.
            guard configuration.recordFailures, kind != .cancelled else { return nil }
            // Recorded as the caller was answered: JSON only when it asked for JSON, and the
            // very bytes either way.
            let served = ProxyReply.gatewayResponse(
                status: status, kind: kind, message: message, json: StubEngine.wantsJSON(exchange.headers))
            let (body, _) = self.body(served.body, mediaType: served.headers["Content-Type"], extract: false)
            // A timeout replays after the wait the caller had: at least the configured timeout,
            // which libcurl enforces against its own clock (ours may start a moment later).
            let waited = max(
                Self.milliseconds(exchange.upstream.duration),
                kind == .timedOut ? Self.milliseconds(configuration.timeout) : 0)
            response = ResponseDefinition(
                status: status, headers: served.headers, body: body,
                fixedDelayMilliseconds: kind == .timedOut && waited > 0 ? waited : nil)
        case .fault(let fault):
            guard configuration.recordFailures else { return nil }
            response = ResponseDefinition(fault: fault)
        }
        let mapping = StubMapping(
            id: id, name: name, request: requestPattern(for: exchange), response: response, metadata: Self.marker)
        return RecordedMapping(mapping: mapping, bodyFile: bodyFile)
    }

    package static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// How a body is kept. JSON (by media type) becomes `jsonBody` when its compact form is
    /// the very bytes received, so the stub replays them exactly. When files are written,
    /// large bodies, other JSON and binary bodies go to `__files/` exactly as received; small
    /// text stays inline as `body`.
    func body(_ bytes: [UInt8], mediaType: String?, extract: Bool) -> (ResponseBody, PendingBodyFile?) {
        guard !bytes.isEmpty else { return (.none, nil) }
        let media = mediaType ?? ""
        let text = String(validating: bytes, as: UTF8.self)
        let isJSON = media.contains("json")
        let isText = text != nil && (media.isEmpty || Self.isTextual(media))
        let threshold = isText ? configuration.textBodyFileThreshold : configuration.binaryBodyFileThreshold
        let large = bytes.count > threshold
        if isJSON, !large, let json = try? JSONValue(parsing: bytes), json.serializedBytes() == bytes {
            return (.json(json), nil)
        }
        if extract && (large || isJSON || !isText) {
            return (.bytes(bytes), PendingBodyFile(bytes: bytes, fileExtension: Self.fileExtension(for: media)))
        }
        if let text, isText { return (.text(text), nil) }
        return (.bytes(bytes), nil)
    }

    /// Whether a media type is text a person can review in a mapping.
    static func isTextual(_ media: String) -> Bool {
        media.hasPrefix("text/") || media.contains("json") || media.contains("xml") || media.contains("javascript")
            || media == "application/x-www-form-urlencoded"
    }

    /// The extension for a body file, by media type; `body` when none says what it is (so no
    /// content type is implied on replay).
    static func fileExtension(for media: String) -> String {
        switch media {
        case _ where media.contains("json"): "json"
        case "text/html": "html"
        case _ where media.contains("xml") && !media.contains("svg"): "xml"
        case "text/plain": "txt"
        case "text/css": "css"
        case _ where media.contains("javascript"): "js"
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/svg+xml": "svg"
        case "application/pdf": "pdf"
        default: "body"
        }
    }
}
