import Foundation
import StubFormat
import Testing

/// A misspelt stub field names the field meant.
@Suite struct FieldSuggestionTests {
    @Test(arguments: [
        (#"{"request": {"url": "/x", "heders": {}}, "response": {}}"#, "'heders' (did you mean 'headers'?)"),
        (#"{"request": {"url": "/x"}, "respnse": {}}"#, "'respnse' (did you mean 'response'?)"),
        (#"{"request": {"url": "/x"}, "response": {"staus": 200}}"#, "'staus' (did you mean 'status'?)"),
        (#"{"request": {"url": "/x"}, "response": {}, "priorty": 1}"#, "'priorty' (did you mean 'priority'?)"),
    ])
    func aMisspeltFieldSuggestsTheNearest(file: String, expected: String) throws {
        let folder = try TemporaryStubFolder(["mappings/x.json": file])
        defer { folder.remove() }
        let problems = try StubFolder(root: folder.root).read().problems
        #expect(problems.contains { $0.message.contains(expected) }, "\(problems)")
    }

    @Test func aFieldNothingLikeAnyOtherSuggestsNothing() throws {
        let folder = try TemporaryStubFolder([
            "mappings/x.json": #"{"request": {"url": "/x"}, "response": {}, "zzzzzz": 1}"#
        ])
        defer { folder.remove() }
        let problems = try StubFolder(root: folder.root).read().problems
        #expect(problems.count == 1 && !(problems.first?.message.contains("did you mean") ?? true), "\(problems)")
    }
}
