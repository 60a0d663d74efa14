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
