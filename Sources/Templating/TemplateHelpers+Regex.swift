import LinearRegex
import Platform

extension TemplateHelpers {
    /// `regexExtract text pattern [variable] [default=...]`, as WireMock's RegexExtractHelper:
    /// without a variable, the first match (Java's `find()`); with one, the groups of every
    /// match, in order, set as a list that renders as its first element.
    static let regexExtract: Function = { call throws(TemplateError) in
        let text = try call.parameter(0, "text").text
        let pattern = try call.parameter(1, "a regular expression").text
        let regex: CapturingRegex
        do throws(RegexError) {
            regex = try CapturingRegexCache.regex(pattern)
        } catch {
            throw call.wireMockFailure("Invalid regex string \(pattern): \(error.reason)")
        }
        guard call.parameters.count > 2 else {
            if let match = regex.firstMatch(in: text) { return .string(String(match.text)) }
            if let fallback = call.hash("default") { return fallback }
            throw call.wireMockFailure("Nothing matched \(pattern)")
        }
        let matches: [RegexMatch]
        do throws(RegexError) {
            matches = try regex.matches(in: text, maximumCount: call.iterationsLeft + 1)
        } catch {
            throw TemplateError("'regexExtract' \(error.reason)", at: call.position, stopsRender: true)
        }
        try call.spend(matches.count)
        // As WireMock: groups 1...n of each match (a pattern without groups gives none).
        var groups: [String] = []
        for match in matches {
            for group in match.groups.dropFirst() { groups.append(group.map(String.init) ?? "") }
        }
        try call.spend(groups.count)
        guard !groups.isEmpty else {
            if let fallback = call.hash("default") { return fallback }
            throw call.wireMockFailure("Nothing matched \(pattern)")
        }
        call.assignments.append((call.parameters[2].text, MultiValue.value(groups)))
        return .string("")
    }
}

/// Compiled capturing expressions by pattern, shared by renders (at most 256 kept).
enum CapturingRegexCache {
    private static let cache = Locked<[String: CapturingRegex]>([:])

    static func regex(_ pattern: String) throws(RegexError) -> CapturingRegex {
        if let regex = cache.withLock({ $0[pattern] }) { return regex }
        let regex = try CapturingRegex(pattern)
        cache.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[pattern] = regex
        }
        return regex
    }
}
