import JSONKit
import Platform
import StubFormat
import Templating

/// A request pattern's `state-matcher` ready to match: its templates compiled at load,
/// rendered per request with the request as `request`, then checked against the store.
struct CompiledStateMatcher: Sendable {
    typealias Part = CompiledWebhook.Part

    let definition: StateMatcherDefinition
    let context: Part
    let hasProperty: Part?
    let hasNotProperty: Part?
    let counts: [(count: StateMatcherDefinition.Count, value: Part)]
    let clock: TimeSource

    /// Compiles the pattern's matcher; nil, with problems, when a template does not compile.
    static func compile(
        _ definition: StateMatcherDefinition, file: String, basePath: JSONPath, clock: TimeSource,
        problems: inout [StubProblem]
    ) -> CompiledStateMatcher? {
        let path = basePath.appending(key: "request").appending(key: "customMatcher").appending(key: "parameters")
        let before = problems.count
        func part(_ text: String, _ key: String) -> Part? {
            do {
                return try Part(text)
            } catch {
                problems.append(
                    StubProblem(
                        .error, .invalidPattern, file: file, path: path.appending(key: key).description,
                        detail: "state-matcher template: \(error.description)"))
                return nil
            }
        }
        let context = part(definition.context, definition.absent ? "hasNotContext" : "hasContext")
        let hasProperty = definition.hasProperty.flatMap { part($0, "hasProperty") }
        let hasNotProperty = definition.hasNotProperty.flatMap { part($0, "hasNotProperty") }
        let counts = definition.counts.compactMap { count in part(count.value, count.parameterName).map { (count, $0) }
        }
        guard let context, problems.count == before else { return nil }
        return CompiledStateMatcher(
            definition: definition, context: context, hasProperty: hasProperty, hasNotProperty: hasNotProperty,
            counts: counts, clock: clock)
    }

    /// Whether the store's state lets the request match, reported to `recorder` as one
    /// criterion, `state`.
    func evaluate<Recorder: MatchRecorder>(
        _ request: MatchableRequest, store: StateContextStore, into recorder: inout Recorder
    ) -> Bool {
        let model = TemplateRequest(
            method: request.method.rawValue, url: request.target, headers: request.headers, body: request.body,
            baseURL: nil, clientIP: { [request] in request.remoteAddress?.host ?? "" },
            queryParameters: request.queryParameters, path: request.path, secure: request.isSecure)
        let values = TemplateValue.object([("request", .node(model))])
        let expected = definition.absent ? "no context" : "context"
        let outcome: (matched: Bool, expected: String, actual: String)
        do {
            outcome = try decide(values, store: store)
        } catch {
            return recorder.record(false) {
                MatchCriterion(
                    name: "state", matched: false, expected: expected,
                    actual: "the state-matcher's template failed: \(error.description)", distance: 1)
            }
        }
        return recorder.record(outcome.matched) {
            MatchCriterion(
                name: "state", matched: false, expected: outcome.expected, actual: outcome.actual, distance: 1)
        }
    }

    private func decide(
        _ values: TemplateValue, store: StateContextStore
    ) throws(TemplateError) -> (matched: Bool, expected: String, actual: String) {
        let name = try context.render(values, clock: clock, state: store)
        let found = store.stateContext(named: name)
        if definition.absent {
            return (found == nil, "no context '\(name)'", "context '\(name)' exists")
        }
        guard let found else { return (false, "context '\(name)'", "no context '\(name)'") }
        if let hasProperty {
            let property = try hasProperty.render(values, clock: clock, state: store)
            if found.properties[property] == nil {
                return (false, "context '\(name)' with property '\(property)'", "no property '\(property)'")
            }
        }
        if let hasNotProperty {
            let property = try hasNotProperty.render(values, clock: clock, state: store)
            if found.properties[property] != nil {
                return (false, "context '\(name)' without property '\(property)'", "property '\(property)'")
            }
        }
        for (count, part) in counts {
            let text = try part.render(values, clock: clock, state: store)
            let actual = count.subject == .updateCount ? found.updateCount : found.list.count
            let label = "\(count.subject.rawValue) of '\(name)'"
            guard let wanted = Int(text.filter { !$0.isWhitespace }) else {
                return (false, "\(label) \(count.comparison.rawValue) a number", "'\(text.prefix(40))', not a number")
            }
            let holds: Bool
            switch count.comparison {
            case .equalTo: holds = actual == wanted
            case .lessThan: holds = actual < wanted
            case .moreThan: holds = actual > wanted
            }
            if !holds { return (false, "\(label) \(count.comparison.rawValue) \(wanted)", "\(actual)") }
        }
        return (true, "", "")
    }
}
