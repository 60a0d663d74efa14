import Testing

@testable import Templating

/// `request.path.[n]` finds a segment by a scan: the same segment, decoded, as splitting the
/// whole path gives (empty segments skipped), for every index, out of range ones included.
@Suite struct PathNodeTests {
    @Test(arguments: ["/api/templated/42", "/a//b/%20c/", "", "/", "a/b", "//x//", "/caf%C3%A9/%zz/end"])
    func aSegmentByItsIndexIsTheSplitPathsSegment(_ path: String) {
        let node = PathNode(path: path[...], parameters: [:])
        let split = node.entries.map(\.value.text)
        for index in -2..<(split.count + 2) {
            let expected = split.indices.contains(index) ? split[index] : nil
            #expect(node.segment(at: index) == expected, "\(path) [\(index)]")
            #expect(node.member(String(index))?.text == expected, "\(path) [\(index)]")
        }
        #expect(node.member("size")?.text == String(split.count))
    }

    /// A path sliced out of a larger text (as a server's is, out of the request head) is
    /// scanned from the slice's own start.
    @Test func aSegmentOfASliceInsideALargerTextIsTheSlices() throws {
        let line = "GET /caf%C3%A9/b//42?x=/y HTTP/1.1"
        let start = try #require(line.firstIndex(of: " "))
        let end = try #require(line.firstIndex(of: "?"))
        let path = line[line.index(after: start)..<end]
        #expect((0..<4).map { PathNode.segment(of: path, at: $0) } == ["café", "b", "42", nil])
    }

    /// A model given its path by the server reads as one that finds the path in its URL.
    @Test(arguments: ["/api/templated/42?q=x", "/a//b/?", "/?x=/y/z", "/caf%C3%A9/%20", "/"])
    func aModelGivenItsPathReadsAsOneThatFindsIt(_ url: String) throws {
        let template = try Template(
            "{{request.path}}|{{request.path.[0]}}|{{request.path.[1]}}|{{request.pathSegments.size}}|{{request.url}}")
        let target = url[...]
        let path = target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
        func model(_ path: Substring?) -> TemplateValue {
            let request = TemplateRequest(
                method: "GET", url: target, headers: [:], body: [], baseURL: nil, clientIP: { "" },
                queryParameters: [], path: path)
            return .object([("request", .node(request))])
        }
        #expect(try template.render(model(path)) == template.render(model(nil)))
        // The path given is the one read (the server's, found once), not found again.
        #expect(try template.render(model("/given/path")).hasPrefix("/given/path|given|path|2|"))
    }

    @Test func aTemplateParameterComesBeforeASegment() {
        let node = PathNode(path: "/users/7"[...], parameters: ["0": "named", "id": "7"])
        #expect(node.member("id")?.text == "7")
        #expect(node.member("0")?.text == "named")
        #expect(node.member("1")?.text == "7")
        #expect(node.segment(at: 0) == "users")
    }
}

/// The request model works out the client's address and the decoded query only when a
/// template reads them, and then once.
@Suite struct LazyRequestModelTests {
    final class Calls {
        var clientIP = 0
        var query = 0
    }

    static func model(_ calls: Calls) -> TemplateRequest {
        TemplateRequest(
            method: "GET", url: "/a/b?x=1", headers: [:], body: [], baseURL: "http://localhost",
            clientIP: {
                calls.clientIP += 1
                return "10.0.0.1"
            },
            queryParameters: {
                calls.query += 1
                return [(name: "x", value: "decoded")]
            })
    }

    @Test func unreadPartsAreNeverWorkedOut() throws {
        let calls = Calls()
        let text = try Template("{{request.path.[1]}} {{request.method}}").render(
            .object([("request", .node(Self.model(calls)))]))
        #expect(text == "b GET")
        #expect(calls.clientIP == 0 && calls.query == 0)
    }

    @Test func readPartsAreWorkedOutOnce() throws {
        let calls = Calls()
        let text = try Template("{{request.query.x}} {{request.query.x}} {{request.clientIp}} {{request.clientIp}}")
            .render(.object([("request", .node(Self.model(calls)))]))
        #expect(text == "decoded decoded 10.0.0.1 10.0.0.1")
        #expect(calls.clientIP == 1 && calls.query == 1)
    }
}

/// `request.path.N`, `request.query.NAME` and `request.headers.NAME` are compiled to a
/// `RequestAccess` and read straight from the request at the root; inside a block the name
/// `request` goes through the member-by-member lookup. Both give the same text and value.
@Suite struct RequestAccessTests {
    static func model(parameters: [String: String] = [:]) -> TemplateValue {
        let request = TemplateRequest(
            method: "GET", url: "/api/caf%C3%A9/42?a=1&a=2&q=x&e=%3Cb%3E",
            headers: ["X-Multi": "one", "x-multi": "two", "H": "<a&b>"],
            body: [], baseURL: "http://localhost", pathParameters: parameters)
        return .object([("request", .node(request))])
    }

    static let expressions = [
        "request.path.[0]", "request.path.[1]", "request.path.[2]", "request.path.[3]", "request.path.[-1]",
        "request.path.id", "request.path.size", "request.query.a", "request.query.q", "request.query.e",
        "request.query.missing", "request.headers.x-multi", "request.headers.X-MULTI", "request.headers.h",
        "request.headers.none", "size request.query.a", "size request.headers.x-multi", "size request.path.[1]",
        "size request.query.missing",
    ]

    @Test(arguments: expressions, [false, true])
    func theDirectReadRendersAsTheLookupDoes(_ expression: String, _ templated: Bool) throws {
        let context = Self.model(parameters: templated ? ["id": "42"] : [:])
        for (open, close) in [("{{", "}}"), ("{{{", "}}}")] {
            let direct = try Template("\(open)\(expression)\(close)").render(context)
            let lookup = try Template("{{#with this}}\(open)\(expression)\(close){{/with}}").render(context)
            #expect(direct == lookup, "\(open)\(expression)\(close)")
        }
        let truthy = try Template("{{#if \(expression)}}y{{else}}n{{/if}}").render(context)
        let lookupTruthy = try Template("{{#with this}}{{#if \(expression)}}y{{else}}n{{/if}}{{/with}}").render(context)
        #expect(truthy == lookupTruthy, "\(expression)")
    }

    @Test func theDirectReadFindsTheValues() throws {
        let text = try Template(
            "{{request.path.[1]}}|{{request.path.[2]}}|{{request.query.a}}|{{size request.query.a}}|{{request.headers.X-MULTI}}|{{request.headers.h}}|{{{request.headers.h}}}|{{request.query.e}}|{{request.path.[9]}}"
        ).render(Self.model())
        #expect(text == "café|42|1|2|one|<a&b>|<a&b>|<b>|")
        #expect(try Template("{{request.path.id}}").render(Self.model(parameters: ["id": "7"])) == "7")
    }

    @Test func aTargetGivenAsASliceIsReadFromItsOwnStart() throws {
        let head = "http://example.com/api/caf%C3%A9/42?q=x&a=1"
        let slice = head[head.range(of: "/api")!.lowerBound...]
        let request = TemplateRequest(
            method: "GET", url: slice, headers: [:], body: [], baseURL: nil, clientIP: { "" },
            queryParameters: [(name: "q", value: "x")])
        let text = try Template("{{request.url}}|{{request.path}}|{{request.path.[1]}}|{{request.query.q}}").render(
            .object([("request", .node(request))]))
        #expect(text == "/api/caf%C3%A9/42?q=x&a=1|/api/caf%C3%A9/42|café|x")
    }

    @Test func aBaseURLNotGivenIsMadeFromTheHostField() throws {
        let withHost = TemplateRequest(
            method: "GET", url: "/", headers: ["host": "example.com:81"], body: [], baseURL: nil, clientIP: { "" },
            queryParameters: { [] })
        let without = TemplateRequest(
            method: "GET", url: "/", headers: [:], body: [], baseURL: nil, clientIP: { "" }, queryParameters: { [] })
        let template = try Template("{{request.baseUrl}} {{request.host}} {{request.port}}")
        #expect(try template.render(.object([("request", .node(withHost))])) == "http://example.com:81 example.com 81")
        #expect(try template.render(.object([("request", .node(without))])) == "http://localhost localhost 80")
    }
}

/// `{{jsonPath request.query.NAME '$.x'}}` is answered without making the call's arguments
/// when `request` is the root's; inside a block it goes through the general helper call.
/// Both render the same text, errors and the work bound included.
@Suite struct RequestJSONPathTests {
    static func model() -> TemplateValue {
        let request = TemplateRequest(
            method: "GET",
            url: "/api/%7B%22name%22%3A%22Rex%22%7D/7?f=%7B%22name%22%3A%22%3CRex%3E%22%2C%22tags%22%3A%5B1%2C2%5D%7D"
                + "&bad=%7Bname&n=%5B%7B%22x%22%3A1%7D%2C%7B%22x%22%3A2%7D%5D&empty=",
            headers: ["X-Json": #"{"a":{"b":"c"}}"#], body: [], baseURL: "http://localhost",
            pathParameters: ["doc": #"{"id":7}"#])
        return .object([("request", .node(request))])
    }

    static let calls = [
        "jsonPath request.query.f '$.name'", "jsonPath request.query.f '$.tags'",
        "jsonPath request.query.f '$.tags[1]'",
        "jsonPath request.query.f '$.missing'", "jsonPath request.query.f '$..name'",
        "jsonPath request.query.n '$[*].x'",
        "jsonPath request.query.bad '$.name'", "jsonPath request.query.none '$.name'",
        "jsonPath request.query.empty '$.name'", "jsonPath request.headers.x-json '$.a'",
        "jsonPath request.headers.x-json '$.a.b'", "jsonPath request.path.[1] '$.name'",
        "jsonPath request.path.doc '$.id'",
        "jsonPath request.path.[9] '$.id'", "jsonPath request.query.f '$.tags.length()'",
        "jsonPath request.query.f '$.missing' default='d'",
    ]

    @Test(arguments: calls)
    func theDirectCallRendersAsTheGeneralCallDoes(_ call: String) throws {
        let context = Self.model()
        for (open, close) in [("{{", "}}"), ("{{{", "}}}")] {
            let source = "\(open)\(call)\(close)|\(open)\(call)\(close)"
            let direct = try Template(source).render(context)
            let general = try Template("{{#with this}}\(source){{/with}}").render(context)
            #expect(direct == general, "\(source)")
        }
    }

    @Test func theDirectCallFindsTheValues() throws {
        let text = try Template(
            "{{jsonPath request.query.f '$.name'}}|{{{jsonPath request.query.f '$.name'}}}|{{jsonPath request.query.f '$.tags'}}|{{jsonPath request.path.doc '$.id'}}|{{jsonPath request.query.bad '$.name'}}"
        ).render(Self.model())
        #expect(
            text
                == "<Rex>|<Rex>|[1,2]|7|[ERROR: 'jsonPath' expects JSON, but the input does not parse as JSON]"
        )
    }

    @Test(arguments: 0...30)
    func theDirectCallSpendsTheWorkTheGeneralCallSpends(_ maximumWork: Int) {
        let limits = TemplateLimits(maximumWork: maximumWork)
        let source = "{{jsonPath request.query.f '$.name'}}{{jsonPath request.path.doc '$.id'}}"
        func outcome(_ source: String) -> String {
            do {
                return try Template(source, limits: limits).render(Self.model())
            } catch {
                return "error: \(error.description)"
            }
        }
        // The same columns: the direct call behind as many spaces as `{{#with this}}` has.
        let direct = outcome(String(repeating: " ", count: "{{#with this}}".count) + source)
        let general = outcome("{{#with this}}\(source){{/with}}")
        #expect(direct.drop { $0 == " " } == general.drop { $0 == " " }, "\(maximumWork)")
        // 1 + 1 (a query's values) + 6 ('$.name'), then 1 + 8 (the path variable's text) + 4 ('$.id').
        #expect(direct.contains("error") == (maximumWork < 21), "\(maximumWork): \(direct)")
    }
}
