import HTTPCore
import Templating
import TestSupport
import Testing

@testable import HTTPHandlerKit
@testable import HTTPServerKit
@testable import MockEngine
@testable import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A templated stub's answer as the layout made at load writes it (`ResponseShape`,
/// `PreparedHead`) is byte for byte the answer prepared whole from the mapping with the same
/// rendered values (the path every templated answer took before); and templated body files
/// are compiled once per version of the file.
@Suite struct TemplatedAnswerTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let mapping: String
        let target: String
        var headers: [(String, String)] = []
        /// Whether the answer keeps the head's layout (else it is prepared whole per request).
        var laidOut = true
        /// A field the answer must carry, as rendered.
        var expected: (String, String)?
    }

    static let cases: [Case] = [
        Case(
            description: "templated status message, Location and jsonBody's implied type",
            mapping: #"""
                {"request": {"urlPathTemplate": "/users/{id}"}, "name": "users",
                 "response": {"status": 201, "statusMessage": "Made {{request.path.id}}",
                              "headers": {"Location": "/users/{{request.path.id}}", "X-Flavour": "mint"},
                              "jsonBody": {"id": "{{request.path.id}}"}, "transformers": ["response-template"]}}
                """#,
            target: "/users/42", expected: ("Location", "/users/42")),
        Case(
            description: "several templated headers among fixed ones, a fixed delay",
            mapping: #"""
                {"request": {"urlPathPattern": "/h/.*"},
                 "response": {"headers": {"X-A": "{{request.query.a}}", "Cache-Control": "no-store",
                                          "X-Method": "{{request.method}}", "Content-Type": "text/plain"},
                              "body": "{{request.path.[1]}}", "fixedDelayMilliseconds": 5,
                              "transformers": ["response-template"]}}
                """#,
            target: "/h/x?a=1", expected: ("X-Method", "GET")),
        Case(
            description: "a large JSON body to a client that takes gzip",
            mapping: #"""
                {"request": {"urlPath": "/big"},
                 "response": {"headers": {"Content-Type": "application/json", "X-Q": "{{request.query.q}}"},
                              "body": "[\"{{request.query.q}}\",\"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\"]",
                              "transformers": ["response-template"]}}
                """#,
            target: "/big?q=z", headers: [("Accept-Encoding", "gzip")], expected: ("X-Q", "z")),
        Case(
            description: "the same body to a client that does not take gzip",
            mapping: #"""
                {"request": {"urlPath": "/big"},
                 "response": {"headers": {"Content-Type": "application/json"},
                              "body": "[\"{{request.query.q}}\",\"01234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\"]",
                              "transformers": ["response-template"]}}
                """#,
            target: "/big?q=z"),
        Case(
            description: "a templated file name with a Content-Type of its own",
            mapping: #"""
                {"request": {"urlPathPattern": "/f/.*"},
                 "response": {"headers": {"Content-Type": "text/plain"}, "bodyFileName": "{{request.path.[1]}}.json",
                              "transformers": ["response-template"]}}
                """#,
            target: "/f/a", expected: ("Content-Type", "text/plain")),
        Case(
            description: "a templated file name whose extension implies the type is prepared whole",
            mapping: #"""
                {"request": {"urlPathPattern": "/f/.*"},
                 "response": {"bodyFileName": "{{request.path.[1]}}.json", "transformers": ["response-template"]}}
                """#,
            target: "/f/a", laidOut: false, expected: ("Content-Type", "application/json")),
        Case(
            description: "a templated Connection field is prepared whole",
            mapping: #"""
                {"request": {"urlPath": "/c"},
                 "response": {"headers": {"Connection": "{{request.query.c}}"}, "body": "c",
                              "transformers": ["response-template"]}}
                """#,
            target: "/c?c=close", laidOut: false, expected: ("Connection", "close")),
    ]

    /// The one stub of a folder holding `mapping` (and `__files/a.json`), and its server.
    static func stub(_ mapping: String) throws -> (StubServer, CompiledStub, TemporaryStubs) {
        let folder = try TemporaryStubs()
        folder.write("mappings/m.json", mapping)
        folder.write("__files/a.json", #"{"file": "{{request.method}}"}"#)
        let server = try makeServer(stubs: folder.root)
        #expect(server.loadProblems.isEmpty, "\(server.loadProblems)")
        let stub = try #require(server.engine.store.snapshot().index.all.first)
        return (server, stub, folder)
    }

    @Test(arguments: cases)
    func theLaidOutAnswerIsTheAnswerPreparedWhole(_ testCase: Case) throws {
        let (_, stub, folder) = try Self.stub(testCase.mapping)
        _ = folder
        let template = try #require(stub.template)
        #expect((template.shape.head != nil) == testCase.laidOut)
        var headers = HTTPHeaders([("Host", "127.0.0.1")])
        for (name, value) in testCase.headers { headers.add(name: name, value: value) }
        let request = HTTPServerRequest(target: testCase.target, headers: headers)
        let rendered = template.render(request, MatchableRequest(request), stub: stub)
        guard case .success(.prepared(let answer, let delay, let dribble)) = rendered else {
            Issue.record("no prepared answer: \(rendered)")
            return
        }
        var fileName: String?
        if case .file(let name, _) = template.body {
            fileName = try name.render(.object([("request", .node(TemplateRequestProbe.model(request)))]))
        }
        let compress = headers.containsToken("gzip", inHeader: "Accept-Encoding")
        let whole = template.prepareWhole(
            stub.mapping, reason: template.statusMessage == nil ? nil : answer.response.status.reasonPhrase,
            fields: Array(answer.response.headers.fields.prefix(stub.mapping.response.headers.count)),
            fileName: fileName, body: answer.response.body, compress: compress)
        guard case .prepared(let reference, let referenceDelay, let referenceDribble) = whole else {
            Issue.record("the mapping prepared whole is not a prepared answer")
            return
        }
        #expect(
            String(decoding: answer.identity.headBytes, as: UTF8.self)
                == String(decoding: reference.identity.headBytes, as: UTF8.self))
        #expect(answer.identity.bodyBytes == reference.identity.bodyBytes)
        #expect((answer.gzip == nil) == (reference.gzip == nil))
        if let gzip = answer.gzip, let referenceGzip = reference.gzip {
            #expect(gzip.headBytes == referenceGzip.headBytes)
            #expect(gzip.bodyBytes == referenceGzip.bodyBytes)
        }
        #expect(answer.wantsClose == reference.wantsClose && answer.hasDate == reference.hasDate)
        #expect(delay == referenceDelay && dribble == referenceDribble)
        if let (name, value) = testCase.expected { #expect(answer.response.headers[name] == value) }
        #expect(answer.response.headers["Matched-Stub-Id"] == stub.mapping.id)
    }

    /// `request.clientIp` is the address the request came from (read from the matched request
    /// only when a template asks), a HEAD answered by a GET stub included.
    @Test func theClientAddressIsTheRequestsOwn() throws {
        let (server, _, folder) = try Self.stub(
            #"{"request": {"method": "GET", "urlPath": "/ip"}, "response": {"headers": {"X-Ip": "{{request.clientIp}}"}, "body": "{{request.clientIp}}", "transformers": ["response-template"]}}"#
        )
        _ = folder
        let addresses = [
            HTTPSocketAddress(ipv4: (10, 1, 2, 3), port: 40000), HTTPSocketAddress(ipv4: (192, 168, 0, 254), port: 1),
        ]
        for address in addresses {
            for method in [HTTPMethod.get, .head] {
                let request = HTTPServerRequest(method: method, target: "/ip", remoteAddress: address)
                let response = try #require(server.reply(to: request).response())
                #expect(response.headers["X-Ip"] == address.host)
                #expect(String(decoding: response.body, as: UTF8.self) == address.host)
            }
        }
    }

    @Test func aRenderedValueWithControlCharactersIsStillRefused() throws {
        let (server, _, folder) = try Self.stub(
            #"{"request": {"urlPath": "/x"}, "response": {"headers": {"X-Echo": "{{request.query.v}}"}, "body": "x", "transformers": ["response-template"]}}"#
        )
        _ = folder
        let refused = try server.answer("/x?v=a%0Ab")
        #expect(refused.status == 500)
        #expect(refused.text.contains("the rendered value of the header 'X-Echo' holds control characters"))
        #expect(try server.answer("/x?v=ab").header("X-Echo") == "ab")
    }
}

/// The request model as `ResponseTemplate` builds it, for rendering a file name in a test.
enum TemplateRequestProbe {
    static func model(_ request: HTTPServerRequest) -> TemplateRequest {
        TemplateRequest(
            method: request.method.rawValue, url: String(request.head.originForm), headers: request.headers,
            body: request.body, baseURL: "http://127.0.0.1")
    }
}
