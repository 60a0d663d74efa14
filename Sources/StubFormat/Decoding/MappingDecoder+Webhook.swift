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
            phases = requestPhases(
                value, at: path.appending(key: "requestPhases"), ofWebhook: name == WebhookDefinition.listenerName)
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

    /// A listener's `requestPhases`: WireMock's phase names, each an error when it is not one.
    /// A webhook is sent in the `AFTER_COMPLETE` phase only (WireMock's `afterComplete`), and
    /// a listener fires in the phases it lists: without `AFTER_COMPLETE` the webhook is never
    /// sent, in WireMock as here, which a warning says. A state listener runs once the stub
    /// answered whatever it lists (its phases are kept as written).
    private mutating func requestPhases(_ value: JSONValue, at path: JSONPath, ofWebhook: Bool) -> [String]? {
        guard case .array(let items) = value else {
            wrongType(path, expected: "an array of strings", value)
            return nil
        }
        var phases: [String] = []
        for (index, item) in items.enumerated() {
            let here = path.appending(index: index)
            guard let phase = string(item, at: here) else { continue }
            guard WebhookDefinition.requestPhaseNames.contains(phase) else {
                let names = WebhookDefinition.requestPhaseNames.joined(separator: ", ")
                invalid(
                    here,
                    expected: "a request phase (\(names))"
                        + Self.didYouMean(phase, among: WebhookDefinition.requestPhaseNames),
                    found: "'\(phase)'")
                continue
            }
            phases.append(phase)
        }
        if ofWebhook, !phases.contains(WebhookDefinition.sendingPhase) {
            problems.append(
                StubProblem(
                    .warning, .invalidValue, file: file, path: path.description,
                    detail: "a webhook is sent in the \(WebhookDefinition.sendingPhase) phase only, which "
                        + "requestPhases does not list: this webhook is never sent (as in WireMock)"))
        }
        return phases
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
                if !member.value.isNull {
                    webhook.headers = headers(member.value, at: here)
                    refuseLineBreaks(in: member.value, at: here)
                }
            case _ where Self.bodyFields.contains(member.key):
                if let body = body(member, at: here, after: &bodyField) { webhook.body = body }
            case "delay":
                if !member.value.isNull { webhook.delay = delayDistribution(member.value, at: here) }
            default:
                // As WireMock: kept as data for templates (`parameters.NAME`); named, in case it
                // is a misspelt field of the call (`header`, `jsonbody`).
                unknownField(
                    here, member.key, note: "kept as template data (parameters.\(member.key))",
                    known: WebhookDefinition.fields)
                webhook.extraParameters[member.key] = member.value
            }
        }
        if !urlGiven { missing(path.appending(key: "url"), "url") }
        return errorCount == errorsBefore ? webhook : nil
    }

    /// An error for each literal header value (not a template) holding CR, LF or NUL: it could
    /// never be sent (a template's value is checked when rendered).
    private mutating func refuseLineBreaks(in value: JSONValue, at path: JSONPath) {
        guard case .object(let object) = value else { return }
        func check(_ text: String, _ here: JSONPath) {
            guard !text.containsUTF8("{{"), text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 })
            else { return }
            invalid(here, expected: "a header value on one line (no CR, LF or NUL)", found: "a CR, LF or NUL character")
        }
        for member in object.members {
            let here = path.appending(key: member.key)
            switch member.value {
            case .string(let text): check(text, here)
            case .array(let items):
                for (index, item) in items.enumerated() {
                    if case .string(let text) = item { check(text, here.appending(index: index)) }
                }
            default: break
            }
        }
    }
}
