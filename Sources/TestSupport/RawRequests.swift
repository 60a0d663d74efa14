/// A GET request's bytes, with the `Host` header HTTP/1.1 requires and any further header
/// lines given (each ending in CRLF), for ``RawClient/send(_:)``.
///
/// ```swift
/// try client.send(get("/pets", headers: "Connection: close\r\n"))
/// ```
package func get(_ path: String, headers: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: test\r\n\(headers)\r\n"
}

/// One request on a fresh connection to 127.0.0.1:`port` (see ``RawClient/sendRequest(_:_:headers:body:)``),
/// and what came back: a response, or how the exchange broke. The read timeout is 10 s.
///
/// ```swift
/// guard case .reset(let bytes) = try exchange(port, "/fault") else { ... }
/// ```
package func exchange(
    _ port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: String = ""
) throws(RawClientError) -> RawOutcome {
    let client = try RawClient(port: port, timeout: .seconds(10))
    do {
        try client.sendRequest(method, target, headers: headers, body: body)
    } catch .reset {
        // The server cut the request short: what it sent first, and how it ended the
        // connection, are the outcome, read below.
    }
    return try client.readOutcome(head: method == "HEAD")
}

/// One GET on a fresh connection, and what came back.
package func exchange(
    _ port: Int, _ target: String, headers: [(String, String)] = []
) throws(RawClientError) -> RawOutcome {
    try exchange(port, "GET", target, headers: headers)
}

/// One request on a fresh connection that must get a complete response; otherwise throws
/// `.closed`, `.reset` or `.malformed` (with the bytes that came, as text).
///
/// ```swift
/// #expect(try fetch(port, "POST", "/__admin/reset").status == 200)
/// ```
package func fetch(
    _ port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: String = ""
) throws(RawClientError) -> RawResponse {
    switch try exchange(port, method, target, headers: headers, body: body) {
    case .response(let response): return response
    case .closed: throw .closed
    case .reset: throw .reset
    case .malformed(let bytes): throw .malformed("'\(String(decoding: bytes, as: UTF8.self))'")
    }
}

/// One GET on a fresh connection that must get a complete response.
package func fetch(
    _ port: Int, _ target: String, headers: [(String, String)] = []
) throws(RawClientError) -> RawResponse {
    try fetch(port, "GET", target, headers: headers)
}
