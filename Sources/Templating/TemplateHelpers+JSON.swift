import HTTPCore
import JSONKit
import LinearRegex
import Platform

extension TemplateHelpers {
    static let json: [String: Function] = [
        "jsonPath": { call throws(TemplateError) in
            let source = try call.parameter(0, "JSON (text or a value)")
            let expression = try call.parameter(1, "a JSONPath expression").text
            let path: JSONPath
            do {
                path = try call.literalJSONPath ?? JSONPathCache.path(expression)
            } catch {
                throw call.failure("cannot read the JSONPath '\(expression)': \(error)")
            }
            guard let document = call.json(source) else {
                if let fallback = call.hash("default") { return fallback }
                throw call.failure("expects JSON, but the input does not parse as JSON")
            }
            let found = path.evaluate(on: document)
            if let function = path.function, found.isEmpty,
                !JSONPath(components: path.components).evaluate(on: document).isEmpty
            {
                throw call.failure("cannot apply \(function.rawValue)() to what '\(expression)' selects")
            }
            if path.isDefinite {
                guard let value = found.first else { return call.hash("default") ?? .null }
                return .json(value)
            }
            return .json(.array(found))
        },
        "parseJson": { call throws(TemplateError) in
            guard !call.parameters.isEmpty else {
                throw call.wireMockFailure("Missing required JSON string parameter")
            }
            let text = call.parameters[0].text
            guard let value = try? JSONValue(parsing: text) else {
                throw call.failure("expects JSON, found '\(text.prefix(40))'")
            }
            if call.parameters.count > 1 {
                call.assignments.append((call.parameters[1].text, .json(value)))
                return .string("")
            }
            return .json(value)
        },
        "toJson": { call throws(TemplateError) in
            let value = try call.parameter(0, "a value")
            return .string(value.jsonValue.serialized(.pretty))
        },
        "formData": { call throws(TemplateError) in
            let text = try call.parameter(0, "a form body").text
            let decode = call.flag("urlDecode")
            var members: [(key: String, value: TemplateValue)] = []
            var order: [String] = []
            var values: [String: [String]] = [:]
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                let raw = parts.count > 1 ? String(parts[1]) : ""
                let value = decode ? raw.removingPercentEncoding(plusAsSpace: true) ?? raw : raw
                if values[name] == nil { order.append(name) }
                values[name, default: []].append(value)
            }
            try call.spend(order.count)
            for name in order { members.append((name, MultiValue.value(values[name] ?? []))) }
            if call.parameters.count > 1 {
                call.assignments.append((call.parameters[1].text, .object(members)))
                return .string("")
            }
            return .object(members)
        },
    ]
}

/// Compiled regular expressions by pattern, shared by renders (at most 256 kept).
enum RegexCache {
    private static let cache = Locked<[String: LinearTimeRegex]>([:])

    static func regex(_ pattern: String) throws(RegexError) -> LinearTimeRegex {
        if let regex = cache.withLock({ $0[pattern] }) { return regex }
        let regex = try LinearTimeRegex(pattern)
        cache.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[pattern] = regex
        }
        return regex
    }
}

/// Compiled JSONPaths by text, shared by renders (at most 256 kept).
enum JSONPathCache {
    private static let cache = Locked<[String: JSONPath]>([:])

    static func path(_ text: String) throws(JSONPathError) -> JSONPath {
        if let path = cache.withLock({ $0[text] }) { return path }
        let path = try JSONPath(text)
        cache.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[text] = path
        }
        return path
    }
}

/// A name's values (a query parameter, a header, a form field): renders as the value when
/// there is one, as `[a, b]` when there are more; `.[n]`, `first`, `last` pick one.
final class MultiValue: TemplateNode {
    let values: [String]

    init(_ values: [String]) { self.values = values }

    static func value(_ values: [String]) -> TemplateValue {
        values.isEmpty ? .null : .node(MultiValue(values))
    }

    /// The first value, as WireMock renders a name with several.
    var text: String { values.first ?? "" }

    func member(_ name: String) -> TemplateValue? {
        switch name {
        case "first": return values.first.map(TemplateValue.string)
        case "last": return values.last.map(TemplateValue.string)
        case "size", "length": return .int(values.count)
        default:
            guard let index = TemplateValue.listIndex(name, count: values.count) else { return nil }
            return .string(values[index])
        }
    }

    var entries: [(key: String?, value: TemplateValue)] { values.map { (nil, .string($0)) } }
}
