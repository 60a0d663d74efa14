import JSONKit
import Testing

@testable import StubFormat

/// The state extension (`wiremock-state-extension`) in a mapping: `recordState` and
/// `deleteState` listeners and the `state-matcher` custom matcher, as values; what is
/// refused, at its JSON path; and the round trip through the one writer.
@Suite struct StateExtensionDecodingTests {
    static func decode(_ text: String) throws -> (mapping: StubMapping?, problems: [StubProblem]) {
        var decoder = MappingDecoder(file: "x.json")
        let mapping = decoder.decodeMapping(try JSONValue(parsing: text), at: .root)
        return (mapping, decoder.problems)
    }

    static func listeners(_ entries: String) -> String {
        #"{"request": {"urlPath": "/a"}, "response": {"status": 200}, "serveEventListeners": \#(entries)}"#
    }

    static func matcher(_ customMatcher: String) -> String {
        #"{"request": {"urlPath": "/a", "customMatcher": \#(customMatcher)}, "response": {"status": 200}}"#
    }

    /// Listeners as the extension's README writes them, and the definitions they must read.
    @Test(arguments: [
        (
            #"[{"name": "recordState", "parameters": {"context": "{{jsonPath response.body '$.id'}}", "state": {"id": "{{jsonPath response.body '$.id'}}", "n": 3}}}]"#,
            StateListenerDefinition(
                action: .record, context: .named("{{jsonPath response.body '$.id'}}"),
                state: [
                    StateProperty(name: "id", value: "{{jsonPath response.body '$.id'}}"),
                    StateProperty(name: "n", value: "3"),
                ])
        ),
        (
            #"[{"name": "recordState", "parameters": {"context": "q", "list": {"addFirst": {"id": "1"}}}}]"#,
            StateListenerDefinition(
                action: .record, context: .named("q"), listAddition: .first([StateProperty(name: "id", value: "1")]))
        ),
        (
            #"[{"name": "deleteState", "parameters": {"context": "q"}}]"#,
            StateListenerDefinition(action: .delete, context: .named("q"))
        ),
        (
            #"[{"name": "deleteState", "parameters": {"contexts": ["a", "{{request.pathSegments.[1]}}"]}}]"#,
            StateListenerDefinition(action: .delete, context: .names(["a", "{{request.pathSegments.[1]}}"]))
        ),
        (
            #"[{"name": "deleteState", "parameters": {"contextsMatching": "todo-.*"}}]"#,
            StateListenerDefinition(action: .delete, context: .matching("todo-.*"))
        ),
        (
            #"[{"name": "deleteState", "parameters": {"context": "q", "list": {"deleteLast": true}}}]"#,
            StateListenerDefinition(action: .delete, context: .named("q"), listDeletion: .last)
        ),
        (
            #"[{"name": "deleteState", "parameters": {"context": "q", "list": {"deleteIndex": "-1"}}}]"#,
            StateListenerDefinition(action: .delete, context: .named("q"), listDeletion: .index("-1"))
        ),
        (
            #"[{"name": "deleteState", "parameters": {"context": "q", "list": {"deleteWhere": {"property": "id", "value": "{{request.pathSegments.[1]}}"}}}}]"#,
            StateListenerDefinition(
                action: .delete, context: .named("q"),
                listDeletion: .whereProperty("id", equals: "{{request.pathSegments.[1]}}"))
        ),
    ])
    func listenersAreRead(entries: String, expected: StateListenerDefinition) throws {
        let (mapping, problems) = try Self.decode(Self.listeners(entries))
        #expect(problems.isEmpty, "\(problems)")
        let read = try #require(mapping)
        #expect(read.stateListeners == [expected])
        #expect(read.webhooks.isEmpty)
        let again = try StubMapping(json: read.json)
        #expect(again == read)
        #expect(again.json == read.json)
    }

    /// What is refused, each at its JSON path: never a listener or matcher served in part.
    @Test(arguments: [
        (
            listeners(#"[{"name": "recordState", "parameters": {"state": {"a": "b"}}}]"#),
            "$.serveEventListeners[0].parameters"
        ),
        (
            listeners(#"[{"name": "recordState", "parameters": {"context": "c"}}]"#),
            "$.serveEventListeners[0].parameters"
        ),
        (
            listeners(#"[{"name": "recordState", "parameters": {"context": "c", "state": {"a": "b"}, "ttl": 5}}]"#),
            "$.serveEventListeners[0].parameters.ttl"
        ),
        (
            listeners(#"[{"name": "recordState", "parameters": {"context": "c", "state": {"a": {"nested": 1}}}}]"#),
            "$.serveEventListeners[0].parameters.state.a"
        ),
        (
            listeners(#"[{"name": "recordState", "parameters": {"context": "c", "list": {"addMiddle": {}}}}]"#),
            "$.serveEventListeners[0].parameters.list"
        ),
        (
            listeners(#"[{"name": "recordState", "parameters": {"contexts": ["c"], "state": {"a": "b"}}}]"#),
            "$.serveEventListeners[0].parameters.contexts"
        ),
        (
            listeners(#"[{"name": "deleteState", "parameters": {"context": "c", "contextsMatching": "x"}}]"#),
            "$.serveEventListeners[0].parameters.contextsMatching"
        ),
        (
            listeners(#"[{"name": "deleteState", "parameters": {"context": "c", "list": {"deleteFirst": false}}}]"#),
            "$.serveEventListeners[0].parameters.list.deleteFirst"
        ),
        (
            listeners(
                #"[{"name": "deleteState", "parameters": {"context": "c", "list": {"deleteFirst": true, "deleteLast": true}}}]"#
            ),
            "$.serveEventListeners[0].parameters.list.deleteLast"
        ),
        (
            listeners(
                #"[{"name": "deleteState", "parameters": {"context": "c", "list": {"deleteWhere": {"property": "id"}}}}]"#
            ),
            "$.serveEventListeners[0].parameters.list.deleteWhere.value"
        ),
        (
            listeners(#"[{"name": "deleteState", "parameters": {"contexts": ["a"], "list": {"deleteFirst": true}}}]"#),
            "$.serveEventListeners[0].parameters.list"
        ),
        (
            listeners(#"[{"name": "deleteState", "parameters": {"state": {}}}]"#),
            "$.serveEventListeners[0].parameters.state"
        ),
        (listeners(#"[{"name": "stateCleanup", "parameters": {}}]"#), "$.serveEventListeners[0].name"),
        (matcher(#"{"name": "my-matcher", "parameters": {}}"#), "$.request.customMatcher.name"),
        (matcher(#"{"name": "state-matcher"}"#), "$.request.customMatcher.parameters"),
        (matcher(#"{"name": "state-matcher", "parameters": {}}"#), "$.request.customMatcher.parameters"),
        (
            matcher(
                #"{"name": "state-matcher", "parameters": {"hasContext": "a", "property": {"x": {"equalTo": "1"}}}}"#),
            "$.request.customMatcher.parameters.property"
        ),
        (
            matcher(#"{"name": "state-matcher", "parameters": {"hasContext": "a", "list": {"[0]": {}}}}"#),
            "$.request.customMatcher.parameters.list"
        ),
        (
            matcher(#"{"name": "state-matcher", "parameters": {"hasContext": "a", "hasNotContext": "b"}}"#),
            "$.request.customMatcher.parameters.hasNotContext"
        ),
        (
            matcher(#"{"name": "state-matcher", "parameters": {"hasNotContext": "a", "listSizeEqualTo": "1"}}"#),
            "$.request.customMatcher.parameters"
        ),
        (
            matcher(#"{"name": "state-matcher", "parameters": {"hasContext": "a", "updateCountEqualTo": true}}"#),
            "$.request.customMatcher.parameters.updateCountEqualTo"
        ),
        (
            matcher(#"{"name": "state-matcher", "parameters": {"hasContext": "a"}, "weight": 2}"#),
            "$.request.customMatcher.weight"
        ),
    ])
    func refusalsNameTheirPath(mapping: String, path: String) throws {
        let (read, problems) = try Self.decode(mapping)
        #expect(read == nil, "a refused definition must refuse its mapping")
        let errors = problems.filter(\.isError)
        #expect(errors.map(\.path).contains(path), "\(errors.map { "\($0.path): \($0.message)" })")
    }

    @Test func aMatcherIsReadAndWrittenBack() throws {
        let (mapping, problems) = try Self.decode(
            Self.matcher(
                #"{"name": "state-matcher", "parameters": {"hasContext": "{{request.pathSegments.[1]}}", "hasProperty": "id", "hasNotProperty": "gone", "updateCountMoreThan": 1, "listSizeLessThan": "3"}}"#
            ))
        #expect(problems.isEmpty, "\(problems)")
        let read = try #require(mapping?.request.stateMatcher)
        #expect(
            read
                == StateMatcherDefinition(
                    context: "{{request.pathSegments.[1]}}", hasProperty: "id", hasNotProperty: "gone",
                    counts: [.init(.updateCount, .moreThan, "1"), .init(.listSize, .lessThan, "3")]))
        let again = try StubMapping(json: try #require(mapping).json)
        #expect(again.request.stateMatcher == read)
    }

    @Test func webhooksAndStateListenersLoadSideBySide() throws {
        let (mapping, problems) = try Self.decode(
            Self.listeners(
                #"[{"name": "webhook", "parameters": {"url": "http://127.0.0.1:1/x"}}, {"name": "deleteState", "parameters": {"context": "c"}}]"#
            ))
        #expect(problems.isEmpty, "\(problems)")
        #expect(mapping?.webhooks.count == 1 && mapping?.stateListeners.count == 1)
    }
}
