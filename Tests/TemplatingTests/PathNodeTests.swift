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
