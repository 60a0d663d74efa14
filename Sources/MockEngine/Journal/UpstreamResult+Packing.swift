import HTTPCore

extension PackedFields.Writer {
    /// Appends an upstream result that holds `response`: every part of both, the body last.
    mutating func append(_ response: HTTPClientResponse, of result: UpstreamResult) {
        append(result.url)
        append(raw: result.duration)
        append(response.status.code)
        append(response.status.reasonPhrase)
        append(response.version.major)
        append(response.version.minor)
        append(response.headers)
        append(response.contentEncoding == nil ? 0 : 1)
        append(response.contentEncoding ?? "")
        append(response.url)
        append(raw: response.timings.nameLookup)
        append(raw: response.timings.connect)
        append(raw: response.timings.firstByte)
        append(raw: response.timings.total)
        append(response.connectionReused ? 1 : 0)
        append(response.body)
    }

}

extension PackedFields.Reader {
    /// Reads back what `append(_:of:)` wrote: the result with its response.
    mutating func upstreamResult() -> UpstreamResult {
        let url = string()
        let duration = raw(Duration.self)
        let status = HTTPStatus(code: int(), reasonPhrase: string())
        let version = HTTPVersion(major: int(), minor: int())
        let headers = self.headers()
        let hasContentEncoding = int() == 1
        let contentEncoding = string()
        let responseURL = string()
        let timings = HTTPTimings(
            nameLookup: raw(Duration.self), connect: raw(Duration.self), firstByte: raw(Duration.self),
            total: raw(Duration.self))
        let connectionReused = int() == 1
        var response = HTTPClientResponse(
            status: status, version: version, headers: headers, body: bytes(),
            contentEncoding: hasContentEncoding ? contentEncoding : nil, url: responseURL, timings: timings)
        response.connectionReused = connectionReused
        return UpstreamResult(url: url, outcome: .success(response), duration: duration)
    }
}
