import CCurl
import HTTPCore
import Platform

/// One request's libcurl easy handle and the response being collected for it.
///
/// Made by ``CurlTransport/send(_:)``, then owned by the engine's I/O thread from the moment
/// it is added to the multi handle until it finishes.
final class CurlTransfer: @unchecked Sendable {
    // Safe to share: `state` is behind its own lock; every other mutable field is touched only
    // by the engine's single I/O thread (start, the libcurl callbacks it runs, and finish).

    /// Called once with the outcome, on the engine's I/O thread (or the submitting thread
    /// when the transfer never starts).
    typealias Completion = @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void

    struct State: Sendable {
        var completion: Completion?
        var cancelled = false
        var finished = false
    }

    let request: HTTPClientRequest
    let state = Locked(State())
    private let options: CurlTransportConfiguration

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body: [UInt8] = []
    private var headers = HTTPHeaders()
    private var statusLine: Substring = ""
    /// Whether the empty line ending the last response head arrived. libcurl reports a
    /// connection closed in the middle of a head as a success, with what it got so far.
    private var headComplete = false
    private var exceededLimit = false

    init(request: HTTPClientRequest, options: CurlTransportConfiguration) {
        self.request = request
        self.options = options
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        cleanUp()
        errorBuffer.deallocate()
    }

    /// Configures an easy handle for this request: `reusing` one a finished transfer gave back
    /// (reset, so only its connection and DNS caches carry over), or a new one. Throws when
    /// libcurl refuses an option; the handle is the transfer's from here on either way.
    func makeEasyHandle(reusing idle: UnsafeMutableRawPointer? = nil) throws(HTTPClientError) -> UnsafeMutableRawPointer
    {
        guard let easy = idle ?? ccurl_easy_init() else {
            throw HTTPClientError(kind: .other, url: request.url, message: "libcurl could not create a handle")
        }
        self.easy = easy
        let userData = Unmanaged.passUnretained(self).toOpaque()
        var code = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) {
            if code == CURLE_OK { code = ccurl_easy_setopt_long(easy, option, value) }
        }
        func set(_ option: CURLoption, _ value: String) {
            if code == CURLE_OK { code = ccurl_easy_setopt_string(easy, option, value) }
        }
        func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
            if code == CURLE_OK { code = ccurl_easy_setopt_pointer(easy, option, pointer) }
        }
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_URL, request.url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_NOPROGRESS, 1)
        set(CURLOPT_TCP_NODELAY, 1)
        set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        set(CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeout.wholeMilliseconds)
        set(CURLOPT_TIMEOUT_MS, (request.timeout ?? options.totalTimeout).wholeMilliseconds)
        set(CURLOPT_FOLLOWLOCATION, options.followRedirects ? 1 : 0)
        set(CURLOPT_MAXREDIRS, options.maxRedirects)
        if code == CURLE_OK {
            code = ccurl_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxResponseSize))
        }
        if options.decompress { set(CURLOPT_ACCEPT_ENCODING, "gzip, deflate") }
        if !request.headers.contains(name: "User-Agent") { set(CURLOPT_USERAGENT, options.userAgent) }
        set(CURLOPT_WRITEDATA, pointer: userData)
        set(CURLOPT_HEADERDATA, pointer: userData)
        if code == CURLE_OK {
            code = ccurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { data, size, count, user in
                guard let data, let user else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            }
        }
        if code == CURLE_OK {
            code = ccurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { data, size, count, user in
                guard let data, let user else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            }
        }
        setMethodAndBody(easy, &code)
        headerList = makeHeaderList()
        set(CURLOPT_HTTPHEADER, pointer: headerList.map { UnsafeMutableRawPointer($0) })
        guard code == CURLE_OK else {
            throw HTTPClientError(curlCode: code, url: request.url, errorBuffer: errorMessage)
        }
        return easy
    }

    private func setMethodAndBody(_ easy: UnsafeMutableRawPointer, _ code: inout CURLcode) {
        guard code == CURLE_OK else { return }
        switch request.method {
        case .get where request.body == nil:
            code = ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)
        case .head:
            code = ccurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        default:
            if request.method != .post {
                code = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
            let bytes = request.body ?? (request.method == .post ? [] : nil)
            guard code == CURLE_OK, let bytes else { return }
            code = ccurl_easy_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            guard code == CURLE_OK else { return }
            // COPYPOSTFIELDS copies the bytes at once, so the array need not outlive this call.
            code = bytes.withUnsafeBytes { raw in
                var empty: UInt8 = 0
                let pointer = raw.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
                return withUnsafeMutablePointer(to: &empty) { emptyPointer in
                    ccurl_easy_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, pointer ?? UnsafeMutableRawPointer(emptyPointer))
                }
            }
        }
    }

    private func makeHeaderList() -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            // "Name;" is how libcurl is told to send a header with an empty value.
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            list = ccurl_slist_append(list, line)
        }
        // libcurl would otherwise add `Expect: 100-continue` to larger bodies and wait up to a
        // second for an interim response many servers never send (RFC 9110 §10.1.1 lets us skip it).
        list = ccurl_slist_append(list, "Expect:")
        let sendsBody = request.body != nil || request.method == .post
        if sendsBody && !request.headers.contains(name: "Content-Type") {
            // ... and label every body as a form unless told not to.
            list = ccurl_slist_append(list, "Content-Type:")
        }
        return list
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        if body.count + chunk.count > options.maxResponseSize {
            exceededLimit = true
            return 0
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    private func receiveHeader(_ chunk: UnsafeRawBufferPointer) -> Int {
        // One header line per call, read as bytes: libcurl calls this for every field of
        // every response, so no per-character String work here.
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        var end = bytes.count
        while end > start, Self.isLineSpace(bytes[end - 1]) { end -= 1 }
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if line.starts(with: Self.httpPrefix) {
            // A new status line: an interim 1xx or a followed redirect came before; start over.
            statusLine = Substring(String(decoding: line, as: UTF8.self))
            headers = HTTPHeaders()
            headComplete = false
        } else if line.isEmpty {
            headComplete = !statusLine.isEmpty
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            var valueStart = colon + 1
            while valueStart < line.count, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
            headers.add(
                name: String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]), as: UTF8.self),
                value: String(decoding: UnsafeBufferPointer(rebasing: line[valueStart...]), as: UTF8.self))
        }
        return chunk.count
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    /// CR, LF, space or tab: what ends a header line.
    private static func isLineSpace(_ byte: UInt8) -> Bool {
        byte == 0x0D || byte == 0x0A || byte == 0x20 || byte == 0x09
    }

    private var errorMessage: String {
        String(cString: errorBuffer)
    }

    /// The response or error once libcurl reports the transfer done with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPClientResponse, HTTPClientError> {
        guard let easy else {
            return .failure(HTTPClientError(kind: .other, url: request.url, message: "transfer has no handle"))
        }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            return .failure(
                HTTPClientError(
                    kind: .tooLarge, url: request.url,
                    message: "response body exceeds the limit of \(options.maxResponseSize) bytes",
                    curlCode: Int(code.rawValue)))
        }
        guard code == CURLE_OK else {
            var error = HTTPClientError(curlCode: code, url: request.url, errorBuffer: errorMessage)
            var connects = 0
            _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
            // Same codes, other causes: a peer that answered without a status line ("HTTP/0.9")
            // and a broken chunked body both mean bytes that are not HTTP, not a lost connection.
            let notHTTP = code == CURLE_UNSUPPORTED_PROTOCOL && connects > 0
            let badChunk = code == CURLE_RECV_ERROR && error.message.contains("chunked-encoding")
            if notHTTP || badChunk {
                error = HTTPClientError(
                    kind: .malformedResponse, url: error.url, message: error.message, curlCode: error.curlCode)
            }
            return .failure(error)
        }
        guard headComplete else {
            return .failure(
                HTTPClientError(
                    kind: .connectionClosed, url: request.url,
                    message: "connection closed before the response head was complete", curlCode: Int(code.rawValue)))
        }
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var versionCode = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &versionCode)
        var newConnections = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &newConnections)
        var effectiveURL: UnsafeMutablePointer<CChar>?
        _ = ccurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effectiveURL)
        var response = HTTPClientResponse(
            status: HTTPStatus(code: status, reasonPhrase: reasonPhrase),
            version: version(curlCode: versionCode),
            headers: headers,
            body: body,
            contentEncoding: options.decompress ? headers["Content-Encoding"]?.lowercased() : nil,
            url: effectiveURL.map { String(cString: $0) } ?? request.url,
            timings: timings(easy))
        response.connectionReused = newConnections == 0
        return .success(response)
    }

    private var reasonPhrase: String? {
        // "HTTP/1.1 200 OK": the phrase is whatever follows the second space.
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty else { return nil }
        return String(parts[2])
    }

    private func version(curlCode: Int) -> HTTPVersion {
        switch curlCode {
        case Int(CURL_HTTP_VERSION_1_0): .http10
        case Int(CURL_HTTP_VERSION_2_0): .http2
        case Int(CURL_HTTP_VERSION_3): HTTPVersion(major: 3, minor: 0)
        default: .http11
        }
    }

    private func timings(_ easy: UnsafeMutableRawPointer) -> HTTPTimings {
        func micros(_ info: CURLINFO) -> Duration {
            var value: curl_off_t = 0
            _ = ccurl_easy_getinfo_offset(easy, info, &value)
            return .microseconds(value)
        }
        return HTTPTimings(
            nameLookup: micros(CURLINFO_NAMELOOKUP_TIME_T), connect: micros(CURLINFO_CONNECT_TIME_T),
            firstByte: micros(CURLINFO_STARTTRANSFER_TIME_T), total: micros(CURLINFO_TOTAL_TIME_T))
    }

    /// Gives up the easy handle for another transfer to reuse (the caller resets it) and frees
    /// the header list; the caller has removed the handle from the multi.
    func releaseEasyHandle() -> UnsafeMutableRawPointer? {
        let released = easy
        easy = nil
        cleanUp()
        return released
    }

    /// Frees the easy handle and header list; the caller has removed the handle from the multi.
    func cleanUp() {
        if let easy {
            ccurl_easy_cleanup(easy)
            self.easy = nil
        }
        if let headerList {
            ccurl_slist_free_all(headerList)
            self.headerList = nil
        }
    }
}
