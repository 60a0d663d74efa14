import HTTPClient
import HTTPCore
import Platform
import Testing

@Suite struct HTTPClientLoggerTests {
    @Test func getIsAPlainCurlCommand() {
        let request = HTTPClientRequest(url: "http://127.0.0.1:8080/api/pets?name=Rex&page=2")
        #expect(
            HTTPClientLogger.curlCommand(for: request)
                == "curl --compressed 'http://127.0.0.1:8080/api/pets?name=Rex&page=2'")
        #expect(HTTPClientLogger.curlCommand(for: request, compressed: false).hasPrefix("curl 'http"))
    }

    @Test func credentialsAreRedactedAndQuotesEscaped() {
        let request = HTTPClientRequest(
            method: .post, url: "http://h/pets",
            headers: [
                "Authorization": "Bearer secret", "cookie": "session=secret", "Content-Type": "application/json",
            ],
            body: Array(#"{"name":"O'Brien"}"#.utf8))
        let command = HTTPClientLogger.curlCommand(for: request)
        #expect(!command.contains("secret"))
        #expect(
            command
                == #"curl --compressed http://h/pets -H 'Authorization: <redacted>' -H 'cookie: <redacted>' "#
                + #"-H 'Content-Type: application/json' --data-binary '{"name":"O'\''Brien"}'"#)
    }

    @Test(arguments: [
        (HTTPMethod.put, [UInt8]?.some([1]), "curl -X PUT --compressed http://h/x --data-binary '\u{1}'"),
        (.delete, nil, "curl -X DELETE --compressed http://h/x"),
        (.post, nil, "curl -X POST --compressed http://h/x"),
        (.head, nil, "curl --head --compressed http://h/x"),
    ])
    func methodsAreSpelledAsCurlNeedsThem(method: HTTPMethod, body: [UInt8]?, expected: String) {
        #expect(
            HTTPClientLogger.curlCommand(for: HTTPClientRequest(method: method, url: "http://h/x", body: body))
                == expected)
    }

    @Test func largeOrBinaryBodiesAreSummarised() {
        let big = HTTPClientRequest(method: .post, url: "http://h/x", body: Array(repeating: 65, count: 2000))
        #expect(HTTPClientLogger.curlCommand(for: big).hasSuffix("--data-binary '<2000 bytes not shown>'"))
        let binary = HTTPClientRequest(method: .post, url: "http://h/x", body: [0xFF, 0xFE])
        #expect(HTTPClientLogger.curlCommand(for: binary).hasSuffix("--data-binary '<2 bytes not shown>'"))
    }

    @Test func responsesAreOneLineSummariesWithSetCookieRedacted() {
        let entries = Locked<[String]>([])
        let logger = HTTPClientLogger(includesResponseHeaders: true) { entry in
            entries.withLock { $0.append(entry.description) }
        }
        let request = HTTPClientRequest(url: "http://h/pets")
        let response = HTTPClientResponse(
            status: .ok, headers: ["Content-Type": "application/json; charset=utf-8", "Set-Cookie": "id=secret"],
            body: Array("[]".utf8), contentEncoding: "gzip", timings: HTTPTimings(total: .microseconds(12_345)))
        logger.log(request: request)
        logger.log(response: response, for: request)
        logger.log(
            error: HTTPClientError(kind: .timedOut, url: "http://h/pets", message: "Operation timed out"), for: request)
        let logged = entries.withLock { $0 }
        #expect(logged.count == 3)
        #expect(logged[0] == "curl --compressed http://h/pets")
        #expect(
            logged[1] == "200 OK HTTP/1.1, 2 bytes, application/json, (gzip), in 12.3 ms for GET http://h/pets\n"
                + "< Content-Type: application/json; charset=utf-8\n< Set-Cookie: <redacted>")
        #expect(logged[2] == "GET http://h/pets failed: Operation timed out")
    }
}
