import HTTPCore

/// Which header fields cross the proxy and which reach a recorded mapping.
enum HeaderRules {
    /// Hop-by-hop fields (``HTTPHeaders/hopByHopFieldNames``): a proxy never forwards them, and
    /// a stub never replays them.
    static let hopByHop = HTTPHeaders.hopByHopFieldNames

    /// The request fields sent upstream: hop-by-hop ones, `Host` (the target's own is sent),
    /// framing, `Expect` and `Accept-Encoding` (the transport negotiates gzip itself) dropped.
    static func forwardedRequestHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        filtered(headers, dropping: droppedRequestFields)
    }

    private static let droppedRequestFields = Names(hopByHop + ["Host", "Content-Length", "Expect", "Accept-Encoding"])
    private static let droppedResponseFields = Names(hopByHop + ["Content-Length"])
    private static let droppedDecodedResponseFields = Names(hopByHop + ["Content-Length", "Content-Encoding"])
    private static let date = Names(["Date"])

    /// The response fields passed to the caller: hop-by-hop ones and framing dropped (the
    /// server frames the body itself), and `Content-Encoding` when the body arrived decoded.
    static func passedResponseHeaders(_ response: HTTPClientResponseHead) -> HTTPHeaders {
        filtered(response.headers, dropping: response.decoded ? droppedDecodedResponseFields : droppedResponseFields)
    }

    /// The response fields a mapping keeps: those passed to the caller, minus `Date` (the stub
    /// server sends a fresh one) and every redacted name.
    static func recordedResponseHeaders(
        _ response: HTTPClientResponseHead, configuration: RecordingConfiguration
    ) -> HTTPHeaders {
        var headers = filtered(passedResponseHeaders(response), dropping: date)
        headers = HTTPHeaders(headers.fields.filter { !configuration.isRedacted($0.name) })
        return headers
    }

    /// The headers without `names` and without the names the `Connection` field lists.
    static func filtered(_ headers: HTTPHeaders, dropping names: Names) -> HTTPHeaders {
        let fields = headers.fields
        // What `Connection` lists beyond `names` (most list only `keep-alive` or `close`, so
        // this stays empty and unallocated). Fields are read by index, in place: a copy of a
        // field retains its two strings.
        var listed: [Substring] = []
        for index in fields.indices where fields[index].name.equalsIgnoringASCIICase("Connection") {
            _ = HTTPHeaders.listElements(of: fields[index].value) { token in
                if !names.contains(token) { listed.append(token) }
                return false
            }
        }
        var kept: [HTTPHeaders.Field] = []
        kept.reserveCapacity(fields.count)
        for index in fields.indices {
            let name = fields[index].name
            guard !names.contains(name), !listed.contains(where: { $0.equalsIgnoringASCIICase(name) }) else { continue }
            kept.append(fields[index])
        }
        return HTTPHeaders(kept)
    }

    /// Field names, compared ignoring ASCII case, with a mask of their hashes: most names not
    /// among them are ruled out by one hash, with no comparison (a proxied exchange asks for
    /// each of its fields).
    struct Names: Sendable {
        let names: [String]
        let mask: FieldNameMask
        /// Bit `n` is set when a name is `n` bytes long (names of 64 bytes or more set none,
        /// and are always looked for).
        let lengths: UInt64

        init(_ names: [String]) {
            self.names = names
            var mask = FieldNameMask()
            var lengths: UInt64 = 0
            for name in names {
                mask.insert(name, ignoringCase: true)
                if name.utf8.count < 64 { lengths |= 1 << name.utf8.count }
            }
            self.mask = mask
            self.lengths = lengths
        }

        func contains(_ name: some StringProtocol) -> Bool {
            let count = name.utf8.count
            guard count >= 64 || lengths & (1 << count) != 0 else { return false }
            var probe = FieldNameMask()
            probe.insert(name, ignoringCase: true)
            return mask.mayContain(probe) && names.contains { $0.equalsIgnoringASCIICase(name) }
        }
    }
}

/// The parts of an upstream response the header rules look at.
struct HTTPClientResponseHead {
    let headers: HTTPHeaders
    /// Whether the transport decoded a content coding, so `Content-Encoding` no longer holds.
    let decoded: Bool
}
