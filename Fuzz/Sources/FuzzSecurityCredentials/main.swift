import APISchema
import FuzzDriver
import HTTPCore
import OpenAPIMock

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The schemes the input is checked against, one of each kind.
let key = SecurityScheme(name: "key", kind: .apiKey(name: "X-Key", location: .header))
let queryKey = SecurityScheme(name: "queryKey", kind: .apiKey(name: "api_key", location: .query))
let cookieKey = SecurityScheme(name: "cookieKey", kind: .apiKey(name: "session", location: .cookie))
let basic = SecurityScheme(name: "basic", kind: .http(scheme: "basic"))
let bearer = SecurityScheme(name: "bearer", kind: .http(scheme: "bearer"))
let digest = SecurityScheme(name: "digest", kind: .http(scheme: "digest"))
let oauth = SecurityScheme(name: "oauth", kind: .oauth2)

/// The bytes without the spaces and tabs around them.
func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var bytes = bytes
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
    return bytes
}

/// RFC 9110's token68, by bytes: the oracle the readers are held to.
func isToken68(_ bytes: ArraySlice<UInt8>) -> Bool {
    var body = bytes
    while body.last == UInt8(ascii: "=") { body = body.dropLast() }
    return !body.isEmpty
        && body.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~+/".utf8.contains(byte)
        }
}

/// Padded base64 of the bytes (RFC 4648 §4).
func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
        let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
        for position in 0..<4 {
            output.append(
                position <= chunk.count ? alphabet[Int(value >> UInt32(18 - 6 * position) & 63)] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: output, as: UTF8.self)
}

func passes(_ scheme: SecurityScheme, headers: HTTPHeaders, query: Substring? = nil) -> Bool {
    SecurityCheck(alternatives: [[scheme]]).refusal(headers: headers, query: query) == nil
}

/// The check libFuzzer runs on every input, read as text a request carries (bytes a request
/// head cannot carry, CR, LF and NUL, become spaces), against every credential reader, each
/// held to an oracle that reads bytes:
/// - as an `Authorization` value's credentials: Bearer (and oauth2) pass exactly when they are
///   a token68; Basic passes only a token68, and always passes base64 of the input and a colon;
/// - as an API key header: it passes exactly when it is not blank;
/// - as a `Cookie` field: it holds as many pairs as `;`-separated parts with `=` (a `;` before a
///   combining mark separates too), and `session=` before it passes exactly when the part before
///   its first `;` is not blank;
/// - as a query: `api_key=` before it passes exactly when it is not blank (when it has no `&`,
///   `%`, `+` or `#` to change what it decodes to);
/// - every refusal's `found` is escaped: no control character reaches a journal or terminal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecurityCredentials(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size).map { byte in
        byte == 0 || byte == 10 || byte == 13 ? UInt8(ascii: " ") : byte
    }
    let value = String(decoding: bytes, as: UTF8.self)
    // Bytes as the String holds them (invalid UTF-8 became U+FFFD).
    let text = Array(value.utf8)[...]
    let blank = trimmed(text).isEmpty

    // Authorization.
    let token68 = isToken68(trimmed(text))
    for scheme in [bearer, oauth] {
        let met = passes(scheme, headers: ["Authorization": "Bearer " + value])
        precondition(met == token68, "Bearer '\(value)': \(met), token68 \(token68)")
    }
    if passes(basic, headers: ["Authorization": "Basic " + value]) {
        precondition(token68, "Basic '\(value)' passed, not a token68")
    }
    let encoded = base64(Array(text) + [UInt8(ascii: ":")])
    precondition(passes(basic, headers: ["Authorization": "basic " + encoded]), "Basic base64('\(value):') refused")
    _ = passes(digest, headers: ["Authorization": value])
    _ = CredentialForm.authorization(value)

    // An API key in a header.
    precondition(passes(key, headers: ["X-Key": value]) == !blank, "X-Key '\(value)'")

    // Cookies.
    let cookies: HTTPHeaders = ["Cookie": value]
    let parts = text.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true)
    let pairs = parts.filter { $0.contains(UInt8(ascii: "=")) }.count
    precondition(
        cookies.cookiePairs.count == pairs, "Cookie '\(value)': \(cookies.cookiePairs.count) pairs, not \(pairs)")
    let first = text.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
    let session = passes(cookieKey, headers: ["Cookie": "session=" + value])
    precondition(session == !trimmed(first).isEmpty, "Cookie 'session=\(value)': \(session)")

    // The query.
    let query = passes(queryKey, headers: [:], query: Substring("api_key=" + value))
    if !text.contains(where: { "&%+#".utf8.contains($0) }) {
        precondition(query == !blank, "query 'api_key=\(value)': \(query)")
    }

    // Refusals quote what was sent, escaped.
    let all = SecurityCheck(alternatives: [[basic], [key, cookieKey], [digest]])
    let refusal = all.refusal(headers: ["Authorization": value, "Cookie": value], query: nil)
    for violation in refusal?.violations ?? [] {
        precondition(
            violation.found.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F },
            "unescaped: \(violation.found)")
    }
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzSecurityCredentials))
