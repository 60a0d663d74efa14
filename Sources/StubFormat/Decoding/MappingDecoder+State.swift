import JSONKit

extension MappingDecoder {
    /// The parameters `recordState` reads.
    static let recordStateFields = ["context", "state", "list"]
    /// The parameters `deleteState` reads.
    static let deleteStateFields = ["context", "contexts", "contextsMatching", "list"]
    /// The `list` operations of `deleteState`.
    static let listDeletionFields = ["deleteFirst", "deleteLast", "deleteIndex", "deleteWhere"]
    /// The parameters of the `state-matcher` petmock evaluates.
    static let stateMatcherFields =
        ["hasContext", "hasNotContext", "hasProperty", "hasNotProperty"]
        + ["updateCount", "listSize"].flatMap { subject in
            ["EqualTo", "LessThan", "MoreThan"].map { subject + $0 }
        }

    /// A `recordState` or `deleteState` listener's `parameters`: every field it does not know
    /// is an error, so a stub is never served with part of its state change dropped.
    mutating func stateListener(
        _ action: StateListenerDefinition.Action, _ value: JSONValue, at path: JSONPath, requestPhases: [String]?
    ) -> StateListenerDefinition? {
        guard let object = object(value, at: path) else { return nil }
        let errorsBefore = errorCount
        let known = action == .record ? Self.recordStateFields : Self.deleteStateFields
        var selection: StateListenerDefinition.ContextSelection?
        var listener = StateListenerDefinition(action: action, context: .named(""), requestPhases: requestPhases)
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "context" where known.contains(member.key):
                if let name = string(member.value, at: here) { choose(.named(name), at: here, into: &selection) }
            case "contexts" where known.contains(member.key):
                guard case .array(let items) = member.value else {
                    wrongType(here, expected: "an array of context names", member.value)
                    continue
                }
                let names = items.enumerated().compactMap { string($1, at: here.appending(index: $0)) }
                choose(.names(names), at: here, into: &selection)
            case "contextsMatching" where known.contains(member.key):
                if let pattern = string(member.value, at: here) {
                    choose(.matching(pattern), at: here, into: &selection)
                }
            case "state" where action == .record:
                listener.state = stateProperties(member.value, at: here)
            case "list" where action == .record:
                listener.listAddition = listAddition(member.value, at: here)
            case "list":
                listener.listDeletion = listDeletion(member.value, at: here)
            default:
                refuseStateField(member.key, at: here, known: known, in: "'\(action.rawValue)' parameters")
            }
        }
        guard let selection else {
            let expected = action == .record ? "'context'" : "'context', 'contexts' or 'contextsMatching'"
            invalid(path, expected: "a context: \(expected)", found: "none", kind: .missingField)
            return nil
        }
        listener.context = selection
        if action == .record, listener.state == nil, listener.listAddition == nil {
            invalid(path, expected: "'state' or 'list' (what to record)", found: "neither", kind: .missingField)
        }
        if listener.listDeletion != nil, !selection.isSingle {
            invalid(
                path.appending(key: "list"), expected: "one 'context' for a list deletion",
                found: "'contexts' or 'contextsMatching'")
        }
        return errorCount == errorsBefore ? listener : nil
    }

    /// Keeps the first way a listener names its contexts; a second is an error.
    private mutating func choose(
        _ selection: StateListenerDefinition.ContextSelection, at path: JSONPath,
        into chosen: inout StateListenerDefinition.ContextSelection?
    ) {
        guard chosen == nil else {
            invalid(
                path, expected: "one of 'context', 'contexts' and 'contextsMatching'", found: "more than one")
            return
        }
        chosen = selection
    }

    /// An error for a field petmock does not serve, naming it: a state extension stub is
    /// refused rather than served without it.
    private mutating func refuseStateField(_ key: String, at path: JSONPath, known: [String], in place: String) {
        problems.append(
            StubProblem(
                .error, .unknownField, file: file, path: path.description,
                detail: "'\(key)' is not one of the \(place) petmock serves\(Self.didYouMean(key, among: known)) "
                    + "(\(known.map { "'\($0)'" }.joined(separator: ", "))); the mapping is refused rather than "
                    + "served without it"))
    }

    /// A state's properties: an object of templates (numbers and booleans are taken as their text).
    private mutating func stateProperties(_ value: JSONValue, at path: JSONPath) -> [StateProperty]? {
        guard let object = object(value, at: path) else { return nil }
        var properties: [StateProperty] = []
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.value {
            case .string(let text): properties.append(StateProperty(name: member.key, value: text))
            case .int, .number, .bool:
                properties.append(StateProperty(name: member.key, value: member.value.serialized()))
            default: wrongType(here, expected: "a string (a template of the property's value)", member.value)
            }
        }
        return properties
    }

    /// `recordState`'s `list`: `{"addFirst": {...}}` or `{"addLast": {...}}`.
    private mutating func listAddition(_ value: JSONValue, at path: JSONPath) -> StateListenerDefinition.ListAddition? {
        guard let object = object(value, at: path) else { return nil }
        guard object.count == 1, let member = object.members.first, ["addFirst", "addLast"].contains(member.key) else {
            invalid(
                path, expected: "one of 'addFirst' and 'addLast'",
                found: object.isEmpty ? "an empty object" : object.members.map { "'\($0.key)'" }.joined(separator: ", ")
            )
            return nil
        }
        guard let properties = stateProperties(member.value, at: path.appending(key: member.key)) else { return nil }
        return member.key == "addFirst" ? .first(properties) : .last(properties)
    }

    /// `deleteState`'s `list`: one of `deleteFirst`, `deleteLast`, `deleteIndex`, `deleteWhere`.
    private mutating func listDeletion(_ value: JSONValue, at path: JSONPath) -> StateListenerDefinition.ListDeletion? {
        guard let object = object(value, at: path) else { return nil }
        let errorsBefore = errorCount
        var deletion: StateListenerDefinition.ListDeletion?
        for member in object.members {
            let here = path.appending(key: member.key)
            guard Self.listDeletionFields.contains(member.key) else {
                refuseStateField(member.key, at: here, known: Self.listDeletionFields, in: "list deletions")
                continue
            }
            if deletion != nil {
                // The extension reads the first it knows and skips the rest: refused instead.
                invalid(here, expected: "one list deletion", found: "more than one")
                continue
            }
            switch member.key {
            case "deleteFirst", "deleteLast":
                guard let flag = bool(member.value, at: here) else { continue }
                guard flag else {
                    invalid(here, expected: "true", found: "false")
                    continue
                }
                deletion = member.key == "deleteFirst" ? .first : .last
            case "deleteIndex":
                switch member.value {
                case .string(let text): deletion = .index(text)
                case .int: deletion = .index(member.value.serialized())
                default: wrongType(here, expected: "an index as a string (a template), -1 for the last", member.value)
                }
            default:
                guard let condition = self.object(member.value, at: here) else { continue }
                for key in condition.keys where key != "property" && key != "value" {
                    refuseStateField(
                        key, at: here.appending(key: key), known: ["property", "value"], in: "'deleteWhere' fields")
                }
                guard let property = condition["property"], let match = condition["value"] else {
                    missing(
                        here.appending(key: condition["property"] == nil ? "property" : "value"),
                        condition["property"] == nil ? "property" : "value")
                    continue
                }
                guard let name = string(property, at: here.appending(key: "property")),
                    let expected = string(match, at: here.appending(key: "value"))
                else { continue }
                deletion = .whereProperty(name, equals: expected)
            }
        }
        if deletion == nil, errorCount == errorsBefore {
            invalid(
                path, expected: "one of \(Self.listDeletionFields.map { "'\($0)'" }.joined(separator: ", "))",
                found: "none")
        }
        return deletion
    }

    /// A request's `customMatcher`: petmock has the state extension's `state-matcher`; another
    /// name is an error, as is a parameter it does not evaluate.
    mutating func stateMatcher(_ value: JSONValue, at path: JSONPath) -> StateMatcherDefinition? {
        guard let object = object(value, at: path) else { return nil }
        for key in object.keys where key != "name" && key != "parameters" {
            refuseStateField(
                key, at: path.appending(key: key), known: ["name", "parameters"], in: "'customMatcher' fields")
        }
        guard let nameValue = object["name"] else {
            missing(path.appending(key: "name"), "name")
            return nil
        }
        guard let name = string(nameValue, at: path.appending(key: "name")) else { return nil }
        guard name == StateMatcherDefinition.matcherName else {
            invalid(
                path.appending(key: "name"),
                expected: "'state-matcher' (petmock has no other custom matcher; the mapping is refused rather than "
                    + "served matching more requests than it says)", found: "'\(name)'")
            return nil
        }
        let here = path.appending(key: "parameters")
        guard let parameters = object["parameters"] else {
            missing(here, "parameters")
            return nil
        }
        guard let fields = self.object(parameters, at: here) else { return nil }
        let errorsBefore = errorCount
        var matcher = StateMatcherDefinition(context: "")
        var context: (name: String, absent: Bool)?
        for member in fields.members {
            let at = here.appending(key: member.key)
            guard Self.stateMatcherFields.contains(member.key) else {
                refuseStateField(member.key, at: at, known: Self.stateMatcherFields, in: "'state-matcher' parameters")
                continue
            }
            let text: String
            switch member.value {
            case .string(let string): text = string
            case .int: text = member.value.serialized()
            default:
                wrongType(at, expected: "a string (a template)", member.value)
                continue
            }
            switch member.key {
            case "hasContext", "hasNotContext":
                if context != nil {
                    invalid(at, expected: "one of 'hasContext' and 'hasNotContext'", found: "both")
                }
                context = (text, member.key == "hasNotContext")
            case "hasProperty": matcher.hasProperty = text
            case "hasNotProperty": matcher.hasNotProperty = text
            default:
                let subject: StateMatcherDefinition.Count.Subject =
                    member.key.hasPrefix("updateCount") ? .updateCount : .listSize
                let rest = String(member.key.dropFirst(subject.rawValue.count))
                if let comparison = StateMatcherDefinition.Count.Comparison(rawValue: rest) {
                    matcher.counts.append(.init(subject, comparison, text))
                }
            }
        }
        guard let context else {
            invalid(here, expected: "'hasContext' or 'hasNotContext'", found: "neither", kind: .missingField)
            return nil
        }
        matcher.context = context.name
        matcher.absent = context.absent
        if context.absent, matcher.hasProperty != nil || matcher.hasNotProperty != nil || !matcher.counts.isEmpty {
            invalid(
                here, expected: "'hasNotContext' alone (a context that does not exist has no properties or counts)",
                found: "other parameters beside it")
        }
        return errorCount == errorsBefore ? matcher : nil
    }
}

extension StateListenerDefinition {
    /// The listener as WireMock JSON, a `serveEventListeners` entry.
    public var json: JSONValue {
        var parameters = JSONObject()
        switch context {
        case .named(let name): parameters["context"] = .string(name)
        case .names(let names): parameters["contexts"] = .array(names.map(JSONValue.string))
        case .matching(let pattern): parameters["contextsMatching"] = .string(pattern)
        }
        if let state { parameters["state"] = StateProperty.json(state) }
        switch listAddition {
        case .first(let properties)?: parameters["list"] = ["addFirst": StateProperty.json(properties)]
        case .last(let properties)?: parameters["list"] = ["addLast": StateProperty.json(properties)]
        case nil: break
        }
        switch listDeletion {
        case .first?: parameters["list"] = ["deleteFirst": true]
        case .last?: parameters["list"] = ["deleteLast": true]
        case .index(let index)?: parameters["list"] = ["deleteIndex": .string(index)]
        case .whereProperty(let property, let value)?:
            parameters["list"] = ["deleteWhere": ["property": .string(property), "value": .string(value)]]
        case nil: break
        }
        var object: JSONObject = ["name": .string(action.rawValue), "parameters": .object(parameters)]
        if let requestPhases { object["requestPhases"] = .array(requestPhases.map(JSONValue.string)) }
        return .object(object)
    }
}

extension StateProperty {
    /// Properties as a JSON object of their templates.
    static func json(_ properties: [StateProperty]) -> JSONValue {
        .object(JSONObject(properties.map { ($0.name, JSONValue.string($0.value)) }))
    }
}

extension StateMatcherDefinition {
    /// The matcher as WireMock's `customMatcher` object.
    public var json: JSONValue {
        var parameters = JSONObject()
        parameters[absent ? "hasNotContext" : "hasContext"] = .string(context)
        if let hasProperty { parameters["hasProperty"] = .string(hasProperty) }
        if let hasNotProperty { parameters["hasNotProperty"] = .string(hasNotProperty) }
        for count in counts { parameters[count.parameterName] = .string(count.value) }
        return ["name": .string(Self.matcherName), "parameters": .object(parameters)]
    }
}

extension StateListenerDefinition.ContextSelection {
    /// Whether it names one context (`context`).
    public var isSingle: Bool {
        if case .named = self { return true }
        return false
    }
}
