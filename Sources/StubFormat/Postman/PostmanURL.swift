import HTTPCore
import JSONKit

/// A Postman request's URL as a stub matches it: the path (with the host part dropped, since
/// petmock answers any host, and the path prefix of a resolved `{{baseUrl}}` kept), the query
/// pairs, and the values of its `:name` path variables. Postman writes a URL as a string
/// (`{{baseUrl}}/pets/:id?limit=10`) or as an object (`raw`, `protocol`, `host`, `port`,
/// `path`, `query`, `variable`); an object's parts win over its `raw`.
struct PostmanURL: Sendable {
    /// The URL text before the query, as written (variables not yet resolved).
    var address: String
    /// The query pairs as written (undecoded), disabled ones left out; nil values are empty.
    var query: [(name: String, value: String)]
    /// The values the URL gives its `:name` path variables (`variable: [{key, value}]`).
    var pathVariables: [String: String]

    /// Reads a URL value; the reason when it is neither a string nor an object that gives a
    /// `raw`, a `host` or a `path`.
    static func read(_ value: JSONValue) -> Result<PostmanURL, URLReadError> {
        switch value {
        case .string(let text):
            return .success(fromRaw(text))
        case .object(let object):
            var url: PostmanURL
            if object["host"] != nil || object["path"] != nil {
                var address = ""
                if let scheme = object["protocol"]?.stringValue, !scheme.isEmpty { address += scheme + "://" }
                address += parts(object["host"], separator: ".")
                if let port = object["port"]?.stringValue ?? object["port"]?.intValue.map(String.init), !port.isEmpty {
                    address += ":" + port
                }
                let path = parts(object["path"], separator: "/")
                if !path.isEmpty { address += (path.hasPrefix("/") ? "" : "/") + path }
                url = PostmanURL(address: address, query: [], pathVariables: [:])
                if object["query"] == nil, let raw = object["raw"]?.stringValue { url.query = fromRaw(raw).query }
            } else if let raw = object["raw"]?.stringValue {
                url = fromRaw(raw)
            } else {
                return .failure(URLReadError(expected: "a 'raw', 'host' or 'path'", found: "an object without them"))
            }
            if let query = object["query"]?.arrayValue {
                url.query = query.compactMap { pair in
                    guard pair["disabled"]?.boolValue != true, let key = pair["key"]?.stringValue else { return nil }
                    return (key, text(of: pair["value"]))
                }
            }
            for variable in object["variable"]?.arrayValue ?? [] {
                guard let key = variable["key"]?.stringValue ?? variable["id"]?.stringValue else { continue }
                let value = text(of: variable["value"])
                if !value.isEmpty { url.pathVariables[key] = value }
            }
            return .success(url)
        case let other:
            return .failure(URLReadError(expected: "a string or an object", found: MappingDecoder.describe(other)))
        }
    }

    /// Why a URL could not be read.
    struct URLReadError: Error, Sendable, Hashable {
        var expected: String
        var found: String
    }

    /// A raw URL split at its `?` (a `#` fragment dropped), its query in pairs.
    static func fromRaw(_ raw: String) -> PostmanURL {
        var text = Substring(raw)
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        guard let mark = text.firstIndex(of: "?") else {
            return PostmanURL(address: String(text), query: [], pathVariables: [:])
        }
        let query = text[text.index(after: mark)...].split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (name: String(pair), value: "") }
            return (name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]))
        }
        return PostmanURL(address: String(text[..<mark]), query: query, pathVariables: [:])
    }

    /// The path of a resolved address: after `scheme://`, the host part (up to the first `/`)
    /// is dropped, as it is from an address that does not start with `/` (`example.com/pets`,
    /// `{{baseUrl}}/pets` left unresolved); `/` when nothing is left.
    static func path(ofResolved address: String) -> String {
        var rest = Substring(address)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        if !rest.hasPrefix("/") {
            guard let slash = rest.firstIndex(of: "/") else { return "/" }
            rest = rest[slash...]
        }
        return String(rest)
    }

    /// An array of parts (strings, or `{value}` objects as v2.0 and v2.1 both allow) joined,
    /// or a string as it is.
    private static func parts(_ value: JSONValue?, separator: String) -> String {
        switch value {
        case .string(let text)?: return text
        case .array(let elements)?:
            return elements.map { element in element.stringValue ?? text(of: element["value"]) }.joined(
                separator: separator)
        default: return ""
        }
    }

    /// A value as text: a string as it is, null or missing empty, anything else as JSON.
    static func text(of value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: text
        case nil, .null?: ""
        case let other?: other.serialized()
        }
    }
}
