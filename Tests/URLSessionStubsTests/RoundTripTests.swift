import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Platform
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests reach the handler as a server would receive them, and its responses reach the
/// session as a client would read them.
@Suite struct RoundTripTests {
    let host = StubURLSessionHost(handler: EchoHandler())

    func request(_ url: String, method: String = "GET", body: Data? = nil) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    @Test func getSendsMethodPathAndQueryAsTheTarget() async throws {
        let fetched = try await fetch(host.session, "https://api.example/pets/a%20b?kind=cat&q=%2F")
        #expect(fetched.error == nil)
        #expect(fetched.status == 200)
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Method") == "GET")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Target") == "/pets/a%20b?kind=cat&q=%2F")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Echo-Host") == "api.example")
        #expect(fetched.data?.isEmpty ?? true)
    }

    @Test func anEmptyPathIsTheRoot() async throws {
        let fetched = try await fetch(host.session, "http://api.example:8080")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Target") == "/")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Echo-Host") == "api.example:8080")
    }

    @Test func postSendsItsBodyWithItsLength() async throws {
        var request = try request("http://api.example/pets", method: "POST", body: Data(#"{"name":"Rex"}"#.utf8))
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let fetched = await fetch(host.session, request)
        #expect(fetched.text == #"{"name":"Rex"}"#)
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Method") == "POST")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Echo-Content-Length") == "14")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Echo-Content-Type") == "application/json")
    }

    @Test func aBodyStreamIsReadWhole() async throws {
        var request = try request("http://api.example/upload", method: "PUT")
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        request.httpBodyStream = InputStream(data: body)
        let fetched = await fetch(host.session, request)
        #expect(fetched.error == nil)
        #expect(fetched.data == body)
    }

    #if canImport(FoundationNetworking)
    /// FoundationNetworking keeps an upload task's body from URLProtocols: the task fails and
    /// says how to send the body instead, rather than reaching the handler with none.
    @Test func anUploadTasksOwnBodyFailsTheTaskWithTheWorkaround() async throws {
        let reached = Locked(false)
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in
                reached.withLock { $0 = true }
                return .response(HTTPResponse())
            })
        let request = try request("http://api.example/upload", method: "POST")
        let failure: URLError
        do {
            _ = try await host.session.upload(for: request, from: Data("uploaded".utf8))
            Issue.record("an upload with no body in reach was answered")
            return
        } catch {
            failure = urlError(error)
        }
        #expect(failure.code == .requestBodyStreamExhausted)
        #expect(failure.localizedDescription.contains("FoundationNetworking keeps the body"))
        #expect(failure.localizedDescription.contains("httpBody"))
        #expect(failure.failingURL?.absoluteString == "http://api.example/upload")
        #expect(!reached.withLock { $0 })
    }
    #else
    /// Darwin hands a URLProtocol an upload task's data as the request's body stream.
    @Test func anUploadTaskSendsItsData() async throws {
        let request = try request("http://api.example/upload", method: "POST")
        let (data, _) = try await host.session.upload(for: request, from: Data("uploaded".utf8))
        #expect(String(decoding: data, as: UTF8.self) == "uploaded")
    }
    #endif

    /// The workaround on FoundationNetworking, and the same on Darwin: an upload task whose
    /// request carries the body as `httpBody` or `httpBodyStream` sends it.
    @Test func anUploadTaskWhoseRequestCarriesTheBodySendsIt() async throws {
        let body = Data("uploaded".utf8)
        let withBody = try request("http://api.example/upload", method: "POST", body: body)
        let (data, _) = try await host.session.upload(for: withBody, from: body)
        #expect(data == body)
        var withStream = try request("http://api.example/upload", method: "PUT")
        withStream.httpBodyStream = InputStream(data: body)
        let (streamed, _) = try await host.session.upload(for: withStream, from: body)
        #expect(streamed == body)
    }

    @Test func aBodyOverTheLimitFailsTheRequest() async throws {
        let small = StubURLSessionHost(handler: EchoHandler(), options: StubSessionOptions(maximumRequestBodySize: 10))
        var request = try request("http://api.example/upload", method: "PUT")
        request.httpBodyStream = InputStream(data: Data(count: 11))
        let fetched = await fetch(small.session, request)
        #expect(fetched.error?.code == .dataLengthExceedsMaximum)
    }

    @Test func headersGoInAndComeOut() async throws {
        var request = try request("http://api.example/h")
        request.setValue("one", forHTTPHeaderField: "X-First")
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let fetched = await fetch(host.session, request)
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Echo-X-First") == "one")
        #expect(fetched.response?.value(forHTTPHeaderField: "X-Echo-Authorization") == "Bearer t")
    }

    @Test func theHandlerSeesOnlyTheRequestsOwnFields() async throws {
        let fetched = try await fetch(host.session, "http://api.example/h")
        let names = try #require(fetched.response?.value(forHTTPHeaderField: "X-Header-Names"))
        #expect(names == "Host")
    }

    @Test func repeatedResponseFieldsAreJoinedAndTheLengthIsTheBodys() async throws {
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in
                .response(
                    HTTPResponse(
                        headers: HTTPHeaders([("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("Content-Length", "999")]),
                        body: Array("abc".utf8)))
            })
        let fetched = try await fetch(host.session, "http://api.example/c")
        #expect(fetched.response?.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Length") == "3")
        #expect(fetched.text == "abc")
    }

    @Test(arguments: [200, 201, 204, 301, 404, 418, 500, 503])
    func statusCodesArriveAsTheyAre(code: Int) async throws {
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in
                .response(
                    HTTPResponse(status: HTTPStatus(code: code), headers: ["Location": "/x"], body: Array("b".utf8)))
            })
        let fetched = try await fetch(host.session, "http://api.example/status")
        #expect(fetched.error == nil)
        #expect(fetched.status == code)
        #expect(fetched.text == (code == 204 ? "" : "b"))
    }

    @Test func anEmptyBodyIsEmpty() async throws {
        let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse()) })
        let fetched = try await fetch(host.session, "http://api.example/empty")
        #expect(fetched.status == 200)
        #expect(fetched.data?.isEmpty ?? true)
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Length") == "0")
    }

    @Test func aBinaryBodyArrivesByteForByte() async throws {
        let bytes = (0..<1024).map { UInt8(truncatingIfNeeded: $0) }
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in
                .prepared(PreparedResponse(headers: ["Content-Type": "image/png"], body: bytes))
            })
        let fetched = try await fetch(host.session, "http://api.example/bin")
        #expect(fetched.data.map { Array($0) } == bytes)
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Type") == "image/png")
    }

    @Test func aLargeBodyArrivesWhole() async throws {
        let bytes = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(body: bytes)) })
        let fetched = try await fetch(host.session, "http://api.example/large")
        #expect(fetched.data?.count == bytes.count)
        #expect(fetched.data.map { Array($0) } == bytes)
    }

    @Test func aGzipIfAcceptedBodyArrivesUncompressed() async throws {
        let host = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in
                .prepared(
                    PreparedResponse(
                        body: Array(String(repeating: "pets ", count: 100).utf8), compression: .gzipIfAccepted))
            })
        let fetched = try await fetch(host.session, "http://api.example/gz")
        #expect(fetched.text == String(repeating: "pets ", count: 100))
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Encoding") == nil)
    }

    @Test func aHeadRequestGetsTheHeadOnly() async throws {
        let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "hello")) })
        let fetched = await fetch(host.session, try request("http://api.example/head", method: "HEAD"))
        #expect(fetched.status == 200)
        #expect(fetched.data?.isEmpty ?? true)
        #expect(fetched.response?.value(forHTTPHeaderField: "Content-Length") == "5")
    }
}
