import HTTPCore
import Testing

@testable import HTTPServerKit

/// Inputs the fuzzer (Fuzz/, target FuzzHTTPRequestParser) found wrong, kept as tests. Each
/// goes through `parseBothWays`, which feeds the bytes whole and one at a time and expects
/// the same outcome.
@Suite struct HTTPRequestParserFuzzRegressionTests {
    /// A head whose field lines (with their CRLFs) fill the header limit exactly.
    static func headFillingTheHeaderLimit(_ limits: HTTPParserLimits) -> String {
        let requestLine = "GET / HTTP/1.1\r\n"
        let host = "Host: h\r\n"
        let filler = "X: " + String(repeating: "a", count: limits.maxHeaderSize - host.utf8.count - 5) + "\r\n"
        return requestLine + host + filler + "\r\n"
    }

    @Test func aHeaderSectionExactlyAtTheLimitIsAcceptedHoweverItArrives() throws {
        // The empty line ending the head does not count, also when a lone CR of it arrives by
        // itself: counted, the same bytes would pass whole and get 431 one at a time.
        let limits = HTTPParserLimits(maxRequestLineLength: 64, maxHeaderSize: 256)
        let outputs = try parseBothWays(Self.headFillingTheHeaderLimit(limits), limits: limits)
        #expect(outputs.count == 2)
        #expect(outputs.first?.parsedHead?.head.headers["X"]?.utf8.count == 256 - 9 - 5)
    }

    @Test func oneByteMoreIsRefusedHoweverItArrives() {
        let limits = HTTPParserLimits(maxRequestLineLength: 64, maxHeaderSize: 256)
        let text = Self.headFillingTheHeaderLimit(limits).replacing("X: ", with: "X: b")
        #expect(throws: HTTPParserError.headersTooLarge(limit: 256)) { try parseBothWays(text, limits: limits) }
    }
}
