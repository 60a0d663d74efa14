extension TemplateHelpers {
    static let lists: [String: Function] = [
        "size": { call throws(TemplateError) in .int(try call.parameter(0, "a value").size) },
        "array": { call throws(TemplateError) in .array(call.parameters) },
        "range": { call throws(TemplateError) in
            guard let lower = try call.parameter(0, "a start").integer else {
                throw call.failure("expects whole numbers")
            }
            let upper = call.parameters.count > 1 ? call.parameters[1].integer : nil
            let (start, end) = upper.map { (lower, $0) } ?? (0, lower - 1)
            guard start <= end else { return .array([]) }
            guard end - start < call.iterationsLeft else { throw call.failure("would make too many elements") }
            try call.spend(end - start + 1)
            return .array((start...end).map(TemplateValue.int))
        },
        "join": { call throws(TemplateError) in
            let separator = try call.parameter(0, "a separator").text
            var items: [TemplateValue] = []
            for value in call.parameters.dropFirst() {
                switch value {
                case .array, .json(.array), .node: items += value.entries.map(\.value)
                default: items.append(value)
                }
            }
            try call.spend(items.count)
            let joined = items.map(\.text).joined(separator: separator)
            return .string((call.hashText("prefix") ?? "") + joined + (call.hashText("suffix") ?? ""))
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
}
