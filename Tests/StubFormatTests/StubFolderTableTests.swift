import HTTPCore
import JSONKit
import StubFormat
import Testing

/// Mapping files read to values by ``StubFolder``, no server and no socket.
@Suite struct StubFolderTableTests {
    /// One mapping file and what reading it gives.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let file: String
        /// The mappings that decode, with their ids cleared (a mapping without one gets a random id).
        let mappings: [StubMapping]
        /// The problems, as `severity kind path`.
        let problems: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "urlPath and jsonBody",
            file:
                #"{"request": {"method": "GET", "urlPath": "/api/pets"}, "response": {"status": 200, "jsonBody": [1]}}"#,
            mappings: [
                StubMapping(
                    id: "", request: RequestPattern(method: .get, url: .urlPath("/api/pets")),
                    response: ResponseDefinition(status: 200, body: .json([1])))
            ],
            problems: []),
        Case(
            name: "object-form method, read as written",
            file: #"{"request": {"method": {"oneOf": ["GET", "HEAD"]}, "url": "/a?b=1"}, "response": {"status": 204}}"#,
            mappings: [
                StubMapping(
                    id: "", request: pattern(url: .url("/a?b=1"), methods: .oneOf([.get, .head])),
                    response: ResponseDefinition(status: 204))
            ],
            problems: []),
        Case(
            name: "ANY is no method criterion",
            file: #"{"request": {"method": "ANY"}, "response": {"bodyFileName": "pets.json"}}"#,
            mappings: [
                StubMapping(id: "", request: RequestPattern(), response: ResponseDefinition(body: .file("pets.json")))
            ],
            problems: []),
        Case(
            name: "several mappings in one file",
            file:
                #"{"mappings": [{"request": {"urlPath": "/a"}, "response": {"body": "a"}}, {"request": {"urlPathTemplate": "/b/{id}"}, "response": {"status": 404}}]}"#,
            mappings: [
                StubMapping(
                    id: "", request: RequestPattern(url: .urlPath("/a")), response: ResponseDefinition(body: .text("a"))
                ),
                StubMapping(
                    id: "", request: RequestPattern(url: .urlPathTemplate("/b/{id}")),
                    response: ResponseDefinition(status: 404)),
            ],
            problems: []),
        Case(
            name: "an unknown field is a warning naming it; the mapping is kept",
            file: #"{"request": {"urlPath": "/a"}, "response": {"status": 200}, "colour": "red"}"#,
            mappings: [
                StubMapping(id: "", request: RequestPattern(url: .urlPath("/a")), response: ResponseDefinition())
            ],
            problems: ["warning unknownField $.colour"]),
        Case(
            name: "a status of the wrong type is an error; the mapping is left out",
            file: #"{"request": {"urlPath": "/a"}, "response": {"status": "200"}}"#,
            mappings: [],
            problems: ["error wrongType $.response.status"]),
        Case(
            name: "an object-form method with an unknown key is an error",
            file: #"{"request": {"method": {"someOf": ["GET"]}}, "response": {}}"#,
            mappings: [],
            problems: ["error invalidValue $.request.method"]),
        Case(
            name: "not JSON",
            file: "{",
            mappings: [],
            problems: ["error invalidJSON $"]),
    ]

    static func pattern(url: URLPattern, methods: MethodSet) -> RequestPattern {
        var pattern = RequestPattern(url: url)
        pattern.methods = methods
        return pattern
    }

    @Test(arguments: cases) func readsTheFileToValues(_ example: Case) throws {
        let folder = try TemporaryStubFolder(["mappings/m.json": example.file])
        defer { folder.remove() }
        let contents = try StubFolder(root: folder.root).read()
        let mappings = contents.mappings.map { entry in
            var mapping = entry.mapping
            mapping.id = ""
            return mapping
        }
        #expect(mappings == example.mappings)
        #expect(contents.problems.map { "\($0.severity) \($0.kind) \($0.path)" } == example.problems)
        #expect(contents.problems.allSatisfy { $0.file == folder.root + "/mappings/m.json" })
    }

    @Test func entriesSayWhereEachMappingIs() throws {
        let folder = try TemporaryStubFolder([
            "mappings/a.json": #"{"mappings": [{"request": {"urlPath": "/a"}}, {"request": {"urlPath": "/b"}}]}"#,
            "mappings/sub/c.json": #"{"request": {"urlPath": "/c"}}"#,
            "mappings/notes.txt": "not a mapping file",
        ])
        defer { folder.remove() }
        let entries = try StubFolder(root: folder.root).read().mappings
        #expect(entries.map(\.path.description) == ["$.mappings[0]", "$.mappings[1]", "$"])
        #expect(
            entries.map { String($0.file.dropFirst(folder.root.count)) } == [
                "/mappings/a.json", "/mappings/a.json", "/mappings/sub/c.json",
            ])
        let only = try StubFolder(root: folder.root).read(only: ["sub/c.json"]).mappings
        #expect(only.map(\.mapping.request.url) == [.urlPath("/c")])
    }

    @Test func aDuplicateIdIsAnErrorOnTheLaterMapping() throws {
        let folder = try TemporaryStubFolder([
            "mappings/a.json": #"{"id": "one", "request": {"urlPath": "/a"}}"#,
            "mappings/b.json": #"{"id": "one", "request": {"urlPath": "/b"}}"#,
        ])
        defer { folder.remove() }
        let contents = try StubFolder(root: folder.root).read()
        #expect(contents.mappings.map(\.mapping.request.url) == [.urlPath("/a")])
        #expect(contents.problems.map(\.kind) == [.duplicateID])
        #expect(contents.problems.first?.file.hasSuffix("b.json") == true)
    }

    @Test func aMissingRootIsRefused() {
        #expect(throws: StubLoadError.rootNotFound("/nonexistent-stub-folder")) {
            try StubFolder(root: "/nonexistent-stub-folder").read()
        }
    }
}
