import JSONKit

extension TemplateHelpers {
    /// The state extension's `state` helper: `{{state context='id' property='title'}}`, the
    /// special properties `updateCount`, `listSize` and `list`, or an entry of the list by a
    /// JSONPath-like index, `list='[0].title'` (`[-1]` is the last); `default` when the
    /// context or the value is missing, else an error rendered in place.
    static let state: Function = { call throws(TemplateError) in
        let name = call.hashText("context") ?? ""
        guard !name.isEmpty else { throw call.wireMockFailure("'context' cannot be empty") }
        let property = call.hashText("property").flatMap { $0.isEmpty ? nil : $0 }
        let list = call.hashText("list").flatMap { $0.isEmpty ? nil : $0 }
        guard (property == nil) != (list == nil) else {
            throw call.wireMockFailure("Either 'property' or 'list' has to be set")
        }
        let fallback = call.hash("default")
        let context = call.state?.stateContext(named: name)
        if let property {
            return try stateProperty(property, of: context, named: name, default: fallback, &call)
        }
        guard let context, let list, let entry = listEntry(list, in: context.list) else {
            if let fallback { return fallback }
            throw call.wireMockFailure("No state for context \(name), list \(list ?? "") found")
        }
        return .json(entry)
    }

    private static func stateProperty(
        _ property: String, of context: StateContext?, named name: String, default fallback: TemplateValue?,
        _ call: inout HelperCall
    ) throws(TemplateError) -> TemplateValue {
        switch property {
        case "updateCount", "listSize":
            guard let context else { return fallback ?? .int(0) }
            return .int(property == "updateCount" ? context.updateCount : context.list.count)
        case "list":
            guard let context else {
                // The default must be a JSON list; anything else gives the empty list.
                guard let fallback, case .array(let items)? = call.json(fallback) else { return .array([]) }
                return .array(items.map(TemplateValue.json))
            }
            try call.spend(context.list.count)
            return .array(context.list.map { .json(.object($0)) })
        default:
            if let value = context?.properties[property] { return .json(value) }
            if let fallback { return fallback }
            throw call.wireMockFailure("No state for context \(name), property \(property) found")
        }
    }

    /// The value `[index]` then an optional JSONPath rest (`.title`) selects in the list; nil
    /// when the text is not of that form, the index is out of range or the rest selects nothing.
    static func listEntry(_ text: String, in list: [JSONObject]) -> JSONValue? {
        guard text.hasPrefix("["), let close = text.firstIndex(of: "]"),
            let index = Int(text[text.index(after: text.startIndex)..<close])
        else { return nil }
        let position = index < 0 ? list.count + index : index
        guard position >= 0, position < list.count else { return nil }
        let entry = JSONValue.object(list[position])
        let rest = text[text.index(after: close)...]
        guard !rest.isEmpty else { return entry }
        guard let path = try? JSONPath("$" + rest) else { return nil }
        return path.firstNode(in: entry)
    }
}
