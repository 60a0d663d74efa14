import HTTPCore
import JSONKit
import Testing

@testable import AdminAPI
@testable import MockEngine
@testable import StubFormat
@testable import StubServerKit

@Suite struct RecordedBodyTests {
    static let builder = RecordedMappingBuilder(configuration: RecordingConfiguration(textBodyFileThreshold: 64))

    static func body(_ text: String, _ media: String?, extract: Bool = true) -> (ResponseBody, PendingBodyFile?) {
        builder.body(Array(text.utf8), mediaType: media, extract: extract)
    }

    @Test func compactJSONIsKeptAsJsonBody() throws {
        let text = #"{"b":1,"a":[true,null,1.50]}"#
        let (body, file) = Self.body(text, "application/json")
        #expect(body == .json(try JSONValue(parsing: text)) && file == nil)
        #expect(try #require(body.jsonValue).serialized() == text, "key order and number text kept")
    }

    @Test(arguments: [
        ("{\n  \"a\": 1\n}", "application/json", "json"),  // pretty: jsonBody would not replay it exactly
        (#"{"a":"\u00e9"}"#, "application/problem+json", "json"),  // an escape JSONKit writes otherwise
        (String(repeating: "x", count: 65), "text/plain", "txt"),  // over the text threshold
        ("<p>hi</p>", "image/png", "png"),  // not text by its type
    ])
    func bodiesThatGoToFiles(_ text: String, _ media: String, _ fileExtension: String) {
        let (body, file) = Self.body(text, media)
        #expect(body == .bytes(Array(text.utf8)))
        #expect(file == PendingBodyFile(bytes: Array(text.utf8), fileExtension: fileExtension))
    }

    @Test func smallTextStaysInlineAndNothingGoesToFilesInMemory() {
        #expect(Self.body("pong", "text/plain").0 == .text("pong"))
        #expect(Self.body("pong", nil).0 == .text("pong"))
        #expect(Self.body("{\n}", "application/json", extract: false).0 == .text("{\n}"))
        #expect(
            RecordedMappingBuilder(configuration: RecordingConfiguration()).body(
                [0xFF, 0x00], mediaType: nil, extract: false
            ).0 == .bytes([0xFF, 0x00]))
        #expect(Self.body("", "text/plain").0 == ResponseBody.none)
    }

    @Test func slugsStayInsideTheFolder() {
        #expect(RecordingEntry.slug(method: "GET", url: "/../../etc/passwd") == "get-etc-passwd")
        #expect(RecordingEntry.slug(method: "GET", url: "/") == "get")
        #expect(RecordingEntry.slug(method: "GET", url: "/api/pets?limit=2&q=%2F..") == "get-api-pets-limit-2-q-2f")
        #expect(RecordingEntry.slug(method: "GET", url: "/" + String(repeating: "a", count: 200)).count <= 80)
    }

    @Test func stableIDsDependOnTheRequestOnly() {
        let id = Identifiers.stableUUID(of: Array("GET /api/pets".utf8))
        #expect(id == Identifiers.stableUUID(of: Array("GET /api/pets".utf8)) && Identifiers.isUUID(id))
        #expect(id != Identifiers.stableUUID(of: Array("GET /api/vets".utf8)))
    }
}

@Suite struct ProxyReplyTests {
    static func reply(_ kind: HTTPClientError.Kind, curlCode: Int? = nil) -> ProxyReply {
        ProxyReply(
            UpstreamResult(
                url: "http://api/x",
                outcome: .failure(HTTPClientError(kind: kind, url: "http://api/x", message: "m", curlCode: curlCode)),
                duration: .zero))
    }

    @Test func failuresArePassedOnAsFaithfullyAsPossible() {
        #expect(Self.reply(.connectionClosed, curlCode: 52) == .fault(.emptyResponse))
        #expect(Self.reply(.connectionClosed, curlCode: 56) == .fault(.connectionResetByPeer))
        #expect(Self.reply(.timedOut).status == 504)
        for kind: HTTPClientError.Kind in [.couldNotConnect, .malformedResponse, .tooLarge, .connectionClosed] {
            #expect(Self.reply(kind).status == 502, "\(kind)")
        }
    }

    @Test func theResponseIsPassedWithoutHopByHopFieldsAndDecodedBody() {
        let response = HTTPClientResponse(
            status: HTTPStatus(code: 200, reasonPhrase: "Fine"),
            headers: [
                "Content-Type": "text/plain", "Connection": "keep-alive, X-Hop", "X-Hop": "1", "Keep-Alive": "t=5",
                "Content-Encoding": "gzip", "Content-Length": "20", "Transfer-Encoding": "chunked", "X-End": "2",
            ], body: Array("hi".utf8), contentEncoding: "gzip")
        let reply = ProxyReply(UpstreamResult(url: "", outcome: .success(response), duration: .zero))
        guard case .response(let status, let headers, let body) = reply else {
            Issue.record("expected a response, got \(reply)")
            return
        }
        #expect(status.reasonPhrase == "Fine" && body == Array("hi".utf8))
        #expect(headers.fields.map(\.name) == ["Content-Type", "X-End"])
    }
}

@Suite struct HeaderRulesTests {
    @Test func theRequestGoesUpWithoutHopByHopHostAndFramingFields() {
        let long = "X-" + String(repeating: "a", count: 70)
        let headers: HTTPHeaders = [
            "host": "127.0.0.1:1", "X-Trace": "t", "CONNECTION": "close, \(long)", long: "hop", "x-trace": "u",
            "Accept-Encoding": "br", "te": "trailers", "Content-length": "3", "Expect": "100-continue", "Accept": "*/*",
            "X-" + String(repeating: "b", count: 70): "kept",
        ]
        let forwarded = HeaderRules.forwardedRequestHeaders(headers)
        #expect(
            forwarded.fields.map(\.name) == ["X-Trace", "x-trace", "Accept", "X-" + String(repeating: "b", count: 70)])
    }

    @Test func namesMatchIgnoringCaseAtAnyLength() {
        let long = String(repeating: "Z", count: 80)
        let names = HeaderRules.Names(["Host", "Keep-Alive", long])
        #expect(names.contains("host") && names.contains("KEEP-alive") && names.contains(long.lowercased()))
        // Same lengths, other names; and names of no listed length.
        #expect(!names.contains("Hoss") && !names.contains("Keep-Alivf") && !names.contains(long + "Z"))
        #expect(!names.contains("Date-Time") && !names.contains(""))
    }
}

@Suite struct RecordingSpecificationTests {
    @Test func wireMockFieldsAndPetmockExtensions() throws {
        let json: JSONValue = [
            "targetBaseUrl": "http://api", "persist": false, "repeatsAsScenarios": false,
            "captureHeaders": ["Accept": [:], "Authorization": [:], "X-Tenant": ["caseInsensitive": true]],
            "extractBodyCriteria": ["textSizeThreshold": "2 kb", "binarySizeThreshold": 100],
            "outputFormat": "ids", "recordFailures": true, "redactHeaders": ["X-Key"],
            "transformers": ["x"], "frobnicate": 1,
        ]
        let spec = try RecordingSpecification(json: json, defaults: RecordingConfiguration(repeatsAsScenarios: true))
        let configuration = spec.configuration
        #expect(
            configuration.targetBaseURL == "http://api" && !configuration.persist && !configuration.repeatsAsScenarios)
        #expect(
            configuration.capturedHeaders == [
                CapturedHeader("Accept"), CapturedHeader("X-Tenant", caseInsensitive: true),
            ])
        #expect(configuration.textBodyFileThreshold == 2048 && configuration.binaryBodyFileThreshold == 100)
        #expect(spec.outputIDs && configuration.recordFailures && configuration.isRedacted("x-key"))
        #expect(spec.warnings.count == 3, "Authorization not captured, transformers, frobnicate: \(spec.warnings)")
    }

    @Test(arguments: [
        (#"{"persist": "yes"}"#, "$.persist"),
        (#"{"extractBodyCriteria": {"textSizeThreshold": "2 parsecs"}}"#, "$.extractBodyCriteria.textSizeThreshold"),
        (#"{"outputFormat": "XML"}"#, "$.outputFormat"), ("[]", "$"),
    ])
    func invalidSpecificationsNameThePath(_ text: String, _ path: String) throws {
        let json = try JSONValue(parsing: text)
        #expect {
            try RecordingSpecification(json: json, defaults: RecordingConfiguration())
        } throws: { error in
            guard case RecordingError.invalidSpecification(let found, _, _)? = error as? RecordingError else {
                return false
            }
            return found == path
        }
    }

    @Test(arguments: ["ftp://host", "http://", "127.0.0.1:8081", "http://host/api?x=1"])
    func invalidTargetsAreRefused(_ target: String) {
        #expect(throws: RecordingError.self) { try RecordingConfiguration.validateTarget(target) }
    }
}

extension ResponseBody {
    var jsonValue: JSONValue? {
        if case .json(let value) = self { return value }
        return nil
    }
}

/// A target given as the API's base URL: its origin and path prefix, what is forwarded, and
/// the 404s that show the prefix repeated.
@Suite struct RecordingBasePathTests {
    static func mounted(_ url: String) -> RecordingConfiguration {
        var configuration = RecordingConfiguration()
        configuration.mount(baseURL: url)
        return configuration
    }

    @Test(
        arguments: [
            ("http://h:1/api", "http://h:1", "/api"), ("http://h:1/api/", "http://h:1", "/api"),
            ("http://h:1", "http://h:1", nil), ("http://h:1/", "http://h:1", nil),
            ("https://h/v1/pets", "https://h", "/v1/pets"),
        ] as [(String, String, String?)])
    func aBaseUrlIsMountedAsOriginAndPath(url: String, origin: String, path: String?) {
        let configuration = Self.mounted(url)
        #expect(configuration.targetBaseURL == origin && configuration.basePath == path, "\(url)")
    }

    @Test func onlyPathsUnderTheBasePathAreForwarded() throws {
        let configuration = Self.mounted("http://h:1/api")
        #expect(configuration.refusal(method: .get, path: "/api", host: nil) == nil)
        #expect(configuration.refusal(method: .get, path: "/api/pets", host: nil) == nil)
        #expect(configuration.refusal(method: .get, path: "/pets", host: nil) != nil)
        let outside = try #require(configuration.refusal(method: .get, path: "/apis/pets", host: "127.0.0.1:8080"))
        #expect(outside.status == 404 && outside.kind == .outsideRecordedAPI)
        #expect(outside.message.contains("Point the client at http://127.0.0.1:8080/api"), "\(outside.message)")
        #expect(Self.mounted("http://h:1").refusal(method: .get, path: "/anything", host: nil) == nil)
    }

    @Test func aNotFoundThatRepeatsTheBasePathIsNeverRecorded() throws {
        let recorder = try Recorder(configuration: Self.mounted("http://h:1/api"), stubsDirectory: nil)
        func exchange(_ url: String, _ status: HTTPStatus) -> RecordedExchange {
            RecordedExchange(
                method: .get, url: url, headers: HTTPHeaders(), body: [],
                upstream: UpstreamResult(
                    url: "http://h:1" + url, outcome: .success(HTTPClientResponse(status: status, body: [])),
                    duration: .zero))
        }
        #expect(
            recorder.record(exchange("/api/api/pets?limit=2", .notFound)) == [
                .prefixRepeated(request: "GET /api/api/pets?limit=2", basePath: "/api")
            ])
        recorder.record(exchange("/api/api", .notFound))
        recorder.record(exchange("/api/apis", .notFound))  // not the prefix again: an answer like any other
        recorder.record(exchange("/api/api/pets", .ok))  // an API that has /api/api answers it
        let result = recorder.finish()
        #expect(result.repeatedPrefix == ["GET /api/api/pets?limit=2", "GET /api/api"])
        #expect(result.mappings.map(\.request.url) == [.url("/api/apis"), .url("/api/api/pets")])
    }
}
