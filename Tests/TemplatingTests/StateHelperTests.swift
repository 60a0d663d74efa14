import JSONKit
import Testing

@testable import Templating

/// The state extension's `state` helper over a fixed set of contexts: properties, the special
/// properties, list entries by index, defaults, and the errors rendered in place.
@Suite struct StateHelperTests {
    struct Contexts: TemplateStateSource {
        let contexts: [String: StateContext]
        func stateContext(named name: String) -> StateContext? { contexts[name] }
    }

    static let source = Contexts(contexts: [
        "t1": StateContext(properties: ["id": "t1", "title": "milk"], updateCount: 2),
        "q": StateContext(
            properties: [:], list: [["id": "a", "n": "1"], ["id": "b", "n": "2"], ["id": "c", "n": "3"]],
            updateCount: 3),
    ])

    static func render(_ source: String, state: (any TemplateStateSource)? = StateHelperTests.source) throws -> String {
        let request = TemplateValue.object([("pathSegments", .array([.string("todos"), .string("t1")]))])
        return try Template(source).render(.object([("request", request)]), state: state)
    }

    @Test(arguments: [
        ("{{state context='t1' property='title'}}", "milk"),
        ("{{state context=request.pathSegments.[1] property='id'}}", "t1"),
        ("{{state context='t1' property='updateCount'}}", "2"),
        ("{{state context='q' property='listSize'}}", "3"),
        ("{{state context='none' property='listSize'}}", "0"),
        ("{{state context='none' property='updateCount' default='7'}}", "7"),
        ("{{state context='t1' property='missing' default='x'}}", "x"),
        ("{{state context='none' property='title' default=''}}", ""),
        ("{{state context='q' list='[0].id'}}", "a"),
        ("{{state context='q' list='[-1].n'}}", "3"),
        ("{{state context='q' list='[1]'}}", #"{"id":"b","n":"2"}"#),
        ("{{state context='q' list='[9].id' default='none'}}", "none"),
        ("{{#each (state context='q' property='list')}}{{id}}{{#unless @last}},{{/unless}}{{/each}}", "a,b,c"),
        ("{{#each (state context='none' property='list')}}x{{/each}}", ""),
        ("{{#each (state context='none' property='list' default='[{\"id\": \"d\"}]')}}{{id}}{{/each}}", "d"),
        ("{{#each (state context='none' property='list' default='not a list')}}x{{/each}}", ""),
        (
            "{{state context='t1' property='nope'}}",
            "[ERROR: No state for context t1, property nope found]"
        ),
        ("{{state context='q' list='[5].id'}}", "[ERROR: No state for context q, list [5].id found]"),
        ("{{state context='' property='id'}}", "[ERROR: 'context' cannot be empty]"),
        ("{{state context='t1'}}", "[ERROR: Either 'property' or 'list' has to be set]"),
        ("{{state context='t1' property='id' list='[0]'}}", "[ERROR: Either 'property' or 'list' has to be set]"),
    ])
    func rendersAsTheExtensionDocuments(template: String, expected: String) throws {
        #expect(try Self.render(template) == expected)
    }

    @Test func withoutAStoreNoContextExists() throws {
        #expect(try Self.render("{{state context='t1' property='title' default='-'}}", state: nil) == "-")
        #expect(try Self.render("{{state context='t1' property='listSize'}}", state: nil) == "0")
    }

    /// A list longer than the render may make elements of is refused, not walked.
    @Test func aListCountsAgainstTheRendersBound() throws {
        let long = Contexts(contexts: [
            "big": StateContext(
                list: Array(repeating: ["id": "x"], count: TemplateLimits.standard.maximumIterations + 1))
        ])
        #expect(throws: TemplateError.self) {
            try Self.render("{{#each (state context='big' property='list')}}{{id}}{{/each}}", state: long)
        }
    }

    /// `{{state}}` with no argument reads a value called `state`, as it did before the helper.
    @Test func aBareStateReadsTheFieldOfThatName() throws {
        let context = TemplateValue.object([
            ("order", .json(["state": "queued"])), ("items", .json([["state": "a"], ["state": "b"]])),
        ])
        let template = try Template(
            "{{order.state}} {{#with order}}{{state}}{{/with}} {{#each items}}{{state}}{{/each}}")
        #expect(try template.render(context) == "queued queued ab")
    }
}
