import HTTPCore
import JSONKit
import LinearRegex

extension TemplateHelpers {
    /// Helpers added for WireMock parity beyond the first set (each in its own file).
    static var extras: [String: Function] {
        var helpers = ["regexExtract": regexExtract, "truncateDate": truncateDate, "numberFormat": numberFormat]
        helpers.merge(system) { first, _ in first }
        return helpers
    }

    /// What is wrong with a call's literal arguments, when something is: checked when the
    /// template is compiled, so a stub with a bad pattern or format is refused at load with
    /// the place of the call. Arguments computed at render are checked then.
    static func loadProblem(_ call: TemplateCall) -> String? {
        func literal(_ index: Int) -> String? {
            guard index < call.parameters.count, case .literal(.string(let text)) = call.parameters[index] else {
                return nil
            }
            return text
        }
        switch call.name {
        case "regexExtract":
            guard let pattern = literal(1) else { return nil }
            do throws(RegexError) {
                _ = try CapturingRegexCache.regex(pattern)
            } catch {
                return "cannot use the pattern '\(pattern)': \(error.reason)"
            }
            return nil
        case "jsonPath":
            guard let expression = literal(1) else { return nil }
            do throws(JSONPathError) {
                _ = try JSONPath(expression)
            } catch {
                return "cannot read the JSONPath '\(expression)': \(error)"
            }
            return nil
        case "truncateDate":
            guard let name = literal(1), DateTruncation(named: name) == nil else { return nil }
            return DateTruncation.problem(name)
        case "numberFormat":
            // Checked when the format, the locale and every hash argument are literals.
            func text(_ expression: TemplateExpression) -> String? {
                switch expression {
                case .literal(.string(let text)): return text
                case .literal(.int(let number)): return String(number)
                case .literal(.bool(let flag)): return flag ? "true" : "false"
                default: return nil
                }
            }
            let given = call.parameters.dropFirst().prefix(2).map(text)
            let hash = call.hash.map { ($0.key, text($0.value)) }
            guard !given.contains(where: { $0 == nil }), !hash.contains(where: { $0.1 == nil }) else { return nil }
            let format = given.first ?? nil
            let locale = given.count > 1 ? given[1] : nil
            if case .failure(let problem) = numberFormatter(
                format: format, locale: locale, hash: hash.map { ($0.0, $0.1 ?? "") })
            {
                return problem.message
            }
            return nil
        case "systemValue":
            // Literal keys and types are checked now: a denied key fails the load, not every
            // response.
            var key: String?
            var type: String?
            for (name, value) in call.hash {
                guard case .literal(.string(let text)) = value else { continue }
                if name == "key" { key = text }
                if name == "type" { type = text }
            }
            if call.hash.contains(where: { $0.key == "key" }) && key == nil { return nil }
            if call.hash.contains(where: { $0.key == "type" }) && type == nil { return nil }
            return systemValueProblem(key: key ?? "", type: type ?? "ENVIRONMENT").map { "refused: \($0)" }
        default: return nil
        }
    }
}
