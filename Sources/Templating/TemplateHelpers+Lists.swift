extension TemplateHelpers {
    static let lists: [String: Function] = [
        "size": { call throws(TemplateError) in .int(try call.parameter(0, "a value").size) },
        "array": { call throws(TemplateError) in .array(call.parameters) },
        "range": { call throws(TemplateError) in
            guard call.parameters.count >= 2, let start = call.parameters[0].integer,
                let end = call.parameters[1].integer
            else {
                throw call.wireMockFailure(
                    "The range helper requires both lower and upper bounds as integer parameters")
            }
            guard start <= end else { return .array([]) }
            let (span, overflow) = end.subtractingReportingOverflow(start)
            guard !overflow, span < call.iterationsLeft else {
                throw TemplateError(
                    "'range' would make more elements than the render's limit allows", at: call.position,
                    stopsRender: true)
            }
            try call.spend(end - start + 1)
            return .array((start...end).map(TemplateValue.int))
        },
        "arrayJoin": { call throws(TemplateError) in
            guard let first = call.parameters.first, case .string(let separator) = first else {
                throw call.wireMockFailure("Separator parameter must be a String")
            }
            guard call.parameters.count > 1 else { throw call.wireMockFailure("The parameter must be list") }
            let items = flattened(call.parameters.dropFirst())
            try call.spend(items.count)
            try call.checkLength(items.count * separator.utf8.count)
            let joined = items.map(\.text).joined(separator: separator)
            return .string((call.hashText("prefix") ?? "") + joined + (call.hashText("suffix") ?? ""))
        },
        "join": { call throws(TemplateError) in
            // Handlebars' own: the separator comes last.
            guard call.parameters.count >= 2 else { throw call.failure("expects values and a separator") }
            let separator = call.parameters[call.parameters.count - 1].text
            let items = flattened(call.parameters.dropLast())
            try call.spend(items.count)
            try call.checkLength(items.count * separator.utf8.count)
            let joined = items.map(\.text).joined(separator: separator)
            return .string((call.hashText("prefix") ?? "") + joined + (call.hashText("suffix") ?? ""))
        },
        "arrayAdd": { call throws(TemplateError) in
            var items = flattened(call.parameters.prefix(1))
            guard call.parameters.count > 1 else {
                throw call.wireMockFailure("Missing required parameter: additional value to add to list")
            }
            let index = try position(call, count: items.count, end: items.count)
            try call.spend(items.count + 1)
            items.insert(call.parameters[1], at: index)
            return .array(items)
        },
        "arrayRemove": { call throws(TemplateError) in
            var items = flattened(call.parameters.prefix(1))
            guard !items.isEmpty else { return .array([]) }
            let index = try position(call, count: items.count - 1, end: items.count - 1)
            items.remove(at: index)
            return .array(items)
        },
        "split": { call throws(TemplateError) in
            let text = try call.parameter(0, "text").text
            let separator = call.parameters.count > 1 ? call.parameters[1].text : ","
            guard !separator.isEmpty else { throw call.failure("expects a separator that is not empty") }
            let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            try call.spend(parts.count)
            return .array(parts.map { .string(String($0)) })
        },
    ]

    /// The values, lists opened into their elements.
    static func flattened(_ values: ArraySlice<TemplateValue>) -> [TemplateValue] {
        var items: [TemplateValue] = []
        for value in values {
            switch value {
            case .array, .json(.array): items += value.entries.map(\.value)
            case .node(let node) where !node.entries.isEmpty: items += node.entries.map(\.value)
            default: items.append(value)
            }
        }
        return items
    }

    /// `position=` of `arrayAdd`/`arrayRemove`: a number, `start` or `end`.
    private static func position(_ call: HelperCall, count: Int, end: Int) throws(TemplateError) -> Int {
        guard let value = call.hash("position") else { return end }
        switch value.text {
        case "start": return 0
        case "end": return end
        default:
            guard let index = value.integer, index >= 0, index <= count else {
                throw call.wireMockFailure(
                    "position must be greater than or equal to 0 and less than or equal to the size of the list")
            }
            return index
        }
    }
}
