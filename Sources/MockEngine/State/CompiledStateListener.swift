import HTTPCore
import HTTPHandlerKit
import JSONKit
import LinearRegex
import Platform
import StubFormat
import Templating

/// A stub's `recordState` or `deleteState` listener ready to run: its templates compiled at
/// load, rendered per answer with the request as `request` and the answer as `response`
/// (`body`, `headers`), the `state` helper reading the store as it is before the change.
struct CompiledStateListener: Sendable {
    typealias Part = CompiledWebhook.Part

    enum Selection: Sendable {
        case named(Part)
        case names([Part])
        case matching(LinearTimeRegex)
    }

    enum Deletion: Sendable {
        case first, last
        case index(Part)
        case whereProperty(Part, equals: Part)
    }

    let definition: StateListenerDefinition
    let selection: Selection
    let state: [(name: String, value: Part)]?
    /// The list addition's properties, and whether it adds at the front.
    let addition: (properties: [(name: String, value: Part)], first: Bool)?
    let deletion: Deletion?

    /// Compiles the mapping's state listeners; nil, with problems, when any does not compile.
    /// A problem names the listener where it was read (after the webhooks, as the writer
    /// puts it, for one built in Swift).
    static func compile(
        _ mapping: StubMapping, file: String, basePath: JSONPath, problems: inout [StubProblem]
    ) -> [CompiledStateListener]? {
        var compiled: [CompiledStateListener] = []
        var failed = false
        for (index, definition) in mapping.stateListeners.enumerated() {
            let path = basePath.appending(key: "serveEventListeners").appending(
                index: definition.sourceIndex ?? mapping.webhooks.count + index
            )
            .appending(key: "parameters")
            var compiler = PartCompiler(file: file, path: path)
            let listener = compiler.compile(definition)
            problems += compiler.problems
            if let listener { compiled.append(listener) } else { failed = true }
        }
        return failed ? nil : compiled
    }

    /// The changes for one answer, in order (a `recordState` with `state` and `list` makes
    /// two), or why the listener made none (a template failed, an index is not a number). Every
    /// template is rendered before any change is applied.
    func changes(
        _ context: TemplateValue, clock: TimeSource, store: StateContextStore
    ) -> Result<[StateChange], StateListenerFailure> {
        func render(_ part: Part) throws(TemplateError) -> String {
            try part.render(context, clock: clock, state: store)
        }
        func render(_ properties: [(name: String, value: Part)]) throws(TemplateError) -> [(String, String)] {
            var rendered: [(String, String)] = []
            for property in properties { rendered.append((property.name, try render(property.value))) }
            return rendered
        }
        do {
            let name: String
            switch selection {
            case .matching(let regex): return .success([.deleteMatching(regex)])
            case .names(let parts):
                var names: [String] = []
                for part in parts { names.append(try render(part)) }
                return .success([.deleteContexts(names)])
            case .named(let part): name = try render(part)
            }
            guard !name.isEmpty else { return .failure(StateListenerFailure("the context rendered empty")) }
            var changes: [StateChange] = []
            if let state { changes.append(.write(context: name, properties: try render(state))) }
            if let addition {
                let entry = JSONObject(try render(addition.properties).map { ($0.0, JSONValue.string($0.1)) })
                changes.append(.add(context: name, entry: entry, first: addition.first))
            }
            guard definition.action == .delete else { return .success(changes) }
            switch deletion {
            case nil: return .success([.deleteContexts([name])])
            case .first?: return .success([.deleteEntry(context: name, .first)])
            case .last?: return .success([.deleteEntry(context: name, .last)])
            case .index(let part)?:
                let text = try render(part)
                guard let index = Int(text.filter { !$0.isWhitespace }) else {
                    return .failure(StateListenerFailure("deleteIndex rendered '\(text.prefix(40))', not an integer"))
                }
                return .success([.deleteEntry(context: name, .index(index))])
            case .whereProperty(let property, let value)?:
                return .success(
                    [
                        .deleteEntry(
                            context: name, .firstWhere(property: try render(property), equals: try render(value)))
                    ]
                )
            }
        } catch {
            return .failure(StateListenerFailure("template: \(error.description)"))
        }
    }
}

/// Compiles a listener's templates, recording problems at their JSON paths.
private struct PartCompiler {
    let file: String
    let path: JSONPath
    var problems: [StubProblem] = []

    mutating func part(_ text: String, at key: JSONPath) -> CompiledStateListener.Part? {
        do {
            return try CompiledStateListener.Part(text)
        } catch {
            problems.append(
                StubProblem(
                    .error, .invalidPattern, file: file, path: key.description,
                    detail: "state template: \(error.description)"))
            return nil
        }
    }

    mutating func properties(
        _ properties: [StateProperty], at base: JSONPath
    ) -> [(name: String, value: CompiledStateListener.Part)]? {
        var compiled: [(name: String, value: CompiledStateListener.Part)] = []
        var failed = false
        for property in properties {
            if let part = part(property.value, at: base.appending(key: property.name)) {
                compiled.append((property.name, part))
            } else {
                failed = true
            }
        }
        return failed ? nil : compiled
    }

    mutating func compile(_ definition: StateListenerDefinition) -> CompiledStateListener? {
        let before = problems.count
        let selection: CompiledStateListener.Selection
        switch definition.context {
        case .named(let name):
            guard let part = part(name, at: path.appending(key: "context")) else { return nil }
            selection = .named(part)
        case .names(let names):
            let here = path.appending(key: "contexts")
            let parts = names.enumerated().compactMap { part($1, at: here.appending(index: $0)) }
            selection = .names(parts)
        case .matching(let pattern):
            do {
                selection = .matching(try LinearTimeRegex(pattern))
            } catch {
                problems.append(
                    StubProblem(
                        .error, .invalidPattern, file: file, path: path.appending(key: "contextsMatching").description,
                        expected: "a valid regular expression", found: "'\(pattern)' (\(error.reason))"))
                return nil
            }
        }
        let state = definition.state.flatMap { properties($0, at: path.appending(key: "state")) }
        var addition: (properties: [(name: String, value: CompiledStateListener.Part)], first: Bool)?
        switch definition.listAddition {
        case .first(let entry)?:
            addition = properties(entry, at: path.appending(key: "list").appending(key: "addFirst")).map { ($0, true) }
        case .last(let entry)?:
            addition = properties(entry, at: path.appending(key: "list").appending(key: "addLast")).map { ($0, false) }
        case nil: break
        }
        var deletion: CompiledStateListener.Deletion?
        let list = path.appending(key: "list")
        switch definition.listDeletion {
        case .first?: deletion = .first
        case .last?: deletion = .last
        case .index(let text)?: deletion = part(text, at: list.appending(key: "deleteIndex")).map { .index($0) }
        case .whereProperty(let property, let value)?:
            let here = list.appending(key: "deleteWhere")
            if let property = part(property, at: here.appending(key: "property")),
                let value = part(value, at: here.appending(key: "value"))
            {
                deletion = .whereProperty(property, equals: value)
            }
        case nil: break
        }
        guard problems.count == before else { return nil }
        return CompiledStateListener(
            definition: definition, selection: selection, state: state, addition: addition, deletion: deletion)
    }
}

/// Why a state listener changed nothing for one answer.
struct StateListenerFailure: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
