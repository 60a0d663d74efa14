import Testing

@testable import MockEngine

/// The one path template: a stub's `urlPathTemplate` (one variable a segment, text around it)
/// and an OpenAPI document's paths (several a segment, text between them).
@Suite struct PathTemplateTests {
    static let documentCases: [(template: String, path: String, values: [String: String]?)] = [
        (
            "/repos/{owner}/{repo}/compare/{base}...{head}", "/repos/o/r/compare/main...dev",
            ["owner": "o", "repo": "r", "base": "main", "head": "dev"]
        ),
        ("/compare/{base}...{head}", "/compare/a...b...c", ["base": "a", "head": "b...c"]),
        ("/compare/{base}...{head}", "/compare/...b", nil),
        ("/compare/{base}...{head}", "/compare/a...", nil),
        ("/files/{name}.json", "/files/a.json.json", ["name": "a.json"]),
        ("/files/{name}.json", "/files/.json", nil),
        ("/v{major}.{minor}/x", "/v1.2/x", ["major": "1", "minor": "2"]),
        ("/items/{id}", "/items/a%20b", ["id": "a b"]),
        ("/items/{id}", "/items/", nil),
        ("/items/{id}", "/items/1/2", nil),
        ("/odd/{a}{b}", "/odd/{a}{b}", [:]),
        ("/odd/{a", "/odd/{a", [:]),
        ("/odd/{a", "/odd/x", nil),
    ]

    @Test(arguments: documentCases)
    func documentPaths(_ template: String, _ path: String, _ values: [String: String]?) {
        #expect(PathTemplate(document: template).match(path[...]) == values)
    }

    @Test func aStubTemplateKeepsOneVariableASegment() throws {
        #expect(throws: PatternError.self) { try PathTemplate("/compare/{base}...{head}") }
        let template = try PathTemplate("/files/{name}.json")
        #expect(template.match("/files/a.json") == ["name": "a"])
        #expect(template.variableNames == ["name"])
    }

    /// A path's segments are split on the byte `/`, empty ones kept, characters of more than
    /// one byte (or a `/` a combining mark follows) within their segment.
    @Test(arguments: [
        ("items/7", ["items", "7"]), ("", [""]), ("items/", ["items", ""]), ("//x", ["", "", "x"]),
        ("café/thé", ["café", "thé"]), ("a/\u{301}b", ["a", "\u{301}b"]),
    ])
    func partsSplitOnTheSlashByte(_ path: String, _ parts: [String]) {
        #expect(PathTemplate.parts(of: path[...]).map(String.init) == parts)
    }

    @Test func literalSegmentsAreCountedForOrdering() {
        #expect(PathTemplate(document: "/items/new").literalCount == 2)
        #expect(PathTemplate(document: "/items/{id}").literalCount == 1)
        #expect(PathTemplate(document: "/c/{a}...{b}").literalCount == 1)
    }
}
