import HTTPCore
import JSONKit

extension MappingDecoder {
    /// The fields of a `serveEventListeners` (or `postServeActions`) entry.
    static let listenerFields = ["name", "parameters", "requestPhases"]

    /// A mapping's `serveEventListeners`, or its older `postServeActions` (`legacy`): an array
    /// of `{"name", "parameters"}`, or, for `postServeActions`, WireMock's older object form
    /// `{"webhook": {parameters}}`. Every entry must be a `webhook`, a `recordState` or a
    /// `deleteState`: another extension's listener is an error naming it, never ignored.
    mutating func serveEventListeners(
        _ value: JSONValue, at path: JSONPath, legacy: Bool, into mapping: inout StubMapping
    ) {
        switch value {
        case .null:
            return
        case .array(let entries):
            for (index, entry) in entries.enumerated() {
                switch listener(entry, at: path.appending(index: index)) {
                case .webhook(let webhook)?: mapping.webhooks.append(webhook)
                case .state(var listener)?:
                    listener.sourceIndex = index
                    mapping.stateListeners.append(listener)
                case nil: continue
                }
            }
        case .object(let object) where legacy:
            for member in object.members {
                let here = path.appending(key: member.key)
                guard checkListenerName(member.key, at: here) else { continue }
                if let action = StateListenerDefinition.Action(rawValue: member.key) {
                    if let listener = stateListener(action, member.value, at: here, requestPhases: nil) {
                        mapping.stateListeners.append(listener)
                    }
                } else if let webhook = webhook(member.value, at: here, requestPhases: nil) {
                    mapping.webhooks.append(webhook)
                }
            }
        default:
            wrongType(
                path,
                expected: legacy
                    ? "an array of {\"name\": \"webhook\", \"parameters\": {...}} or {\"webhook\": {...}}"
                    : "an array of {\"name\": \"webhook\", \"parameters\": {...}}", value)
        }
    }

    /// What one `serveEventListeners` entry decodes to.
    private enum Listener {
        case webhook(WebhookDefinition)
        case state(StateListenerDefinition)
    }

    /// One `{"name": "webhook", "parameters": {...}}` entry (or `recordState`, `deleteState`).
    private mutating func listener(_ value: JSONValue, at path: JSONPath) -> Listener? {
        guard let object = object(value, at: path) else { return nil }
        for member in object.members where !Self.listenerFields.contains(member.key) {
            unknownField(path.appending(key: member.key), member.key, known: Self.listenerFields)
        }
        guard let nameValue = object["name"] else {
            missing(path.appending(key: "name"), "name")
            return nil
        }
        guard let name = string(nameValue, at: path.appending(key: "name")),
            checkListenerName(name, at: path.appending(key: "name"))
        else { return nil }
        var phases: [String]?
        if let value = object["requestPhases"], !value.isNull {
            let here = path.appending(key: "requestPhases")
            if case .array(let items) = value {
                phases = items.enumerated().compactMap { string($1, at: here.appending(index: $0)) }
            } else {
                wrongType(here, expected: "an array of strings", value)
            }
        }
        guard let parameters = object["parameters"] else {
            missing(path.appending(key: "parameters"), "parameters")
            return nil
        }
        if let action = StateListenerDefinition.Action(rawValue: name) {
            return stateListener(action, parameters, at: path.appending(key: "parameters"), requestPhases: phases)
                .map(Listener.state)
        }
        return webhook(parameters, at: path.appending(key: "parameters"), requestPhases: phases).map(Listener.webhook)
    }

    /// Whether `name` is a listener petmock has; an error naming it when not.
    private mutating func checkListenerName(_ name: String, at path: JSONPath) -> Bool {
        guard name != WebhookDefinition.listenerName, StateListenerDefinition.Action(rawValue: name) == nil else {
            return true
        }
        invalid(
            path,
            expected: "'webhook', 'recordState' or 'deleteState' (petmock has no other serve event listener; a stub "
                + "naming another extension is refused rather than served without it)", found: "'\(name)'")
        return false
    }

    /// A webhook's `parameters` object: its own fields, and any others kept as data for
    /// templates (`parameters.name`).
    mutating func webhook(_ value: JSONValue, at path: JSONPath, requestPhases: [String]?) -> WebhookDefinition? {
        guard let object = object(value, at: path) else { return nil }
        let errorsBefore = errorCount
        var webhook = WebhookDefinition(url: "", requestPhases: requestPhases)
        var bodyField: String?
        var urlGiven = false
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.key {
            case "method":
                guard let method = string(member.value, at: here) else { continue }
                if !method.containsUTF8("{{"), method.isEmpty || !method.utf8.allSatisfy(\.isTokenCharacter) {
                    invalid(here, expected: "an HTTP method (a token such as POST) or a template", found: "'\(method)'")
                }
                webhook.method = method
            case "url":
                guard let url = string(member.value, at: here) else { continue }
                urlGiven = true
                if url.isEmpty {
                    invalid(here, expected: "an absolute http:// or https:// URL", found: "an empty string")
                } else if !url.containsUTF8("{{"), let problem = AbsoluteHTTPURL.problem(url) {
                    invalid(here, expected: "an absolute http:// or https:// URL", found: problem)
                }
                webhook.url = url
            case "headers":
                if !member.value.isNull { webhook.headers = headers(member.value, at: here) }
            case _ where Self.bodyFields.contains(member.key):
                if let body = body(member, at: here, after: &bodyField) { webhook.body = body }
            case "delay":
                if !member.value.isNull { webhook.delay = delayDistribution(member.value, at: here) }
            default:
                webhook.extraParameters[member.key] = member.value
            }
        }
        if !urlGiven { missing(path.appending(key: "url"), "url") }
        return errorCount == errorsBefore ? webhook : nil
    }
}
