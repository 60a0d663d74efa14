import HTTPCore
import JSONKit

/// A Postman auth helper (`auth` of a collection, a folder or a request) as a stub can require
/// it: the header field or query parameter the helper adds to each request, and the challenge
/// of the 401 that answers a request without it.
struct PostmanAuth: Sendable, Hashable {
    /// Where the helper puts the credential.
    enum Place: Sendable, Hashable {
        case header
        case query
    }

    /// The helper's type as Postman names it (`bearer`, `basic`, `apikey`, `oauth2`).
    var type: String
    var place: Place
    /// The header field's or query parameter's name.
    var name: String
    /// The credential's value, its variables resolved.
    var value: StringMatcher
    /// `WWW-Authenticate` of the 401 (none for an API key).
    var challenge: String?
    /// Where the helper is defined, as problems name it.
    var path: JSONPath

    /// What an `auth` object says.
    enum Reading: Sendable, Hashable {
        /// `inherit` (or no `auth`): the parent's helper applies.
        case inherit
        /// `noauth`: no helper, whatever the parent's.
        case none
        /// A helper the stubs can require.
        case auth(PostmanAuth)
        /// A helper petmock cannot check (its type), or one that cannot be read (why); the
        /// requests under it require nothing.
        case unchecked(type: String, reason: String)
    }

    /// The types petmock can require.
    static let checkedTypes = ["apikey", "basic", "bearer", "oauth2"]

    /// Reads an `auth` object at `path`; `resolve` gives a text with its variables resolved
    /// (warning about those without a value).
    static func read(
        _ value: JSONValue, at path: JSONPath, resolve: (String, JSONPath) -> String
    ) -> Reading {
        guard case .object(let object) = value else {
            if value == .null { return .inherit }
            return .unchecked(type: "?", reason: "expected an object, found \(MappingDecoder.describe(value))")
        }
        guard let type = object["type"]?.stringValue else {
            return .unchecked(
                type: "?",
                reason: "expected field 'type' a string, found "
                    + (object["type"].map(MappingDecoder.describe) ?? "nothing"))
        }
        let fields = parameters(object[type])
        let here = path.appending(key: type)
        func field(_ key: String) -> String? {
            fields[key].map { resolve($0, here) }
        }
        switch type {
        case "inherit":
            return .inherit
        case "noauth":
            return .none
        case "bearer":
            return .auth(
                PostmanAuth(
                    type: type, place: .header, name: "Authorization", value: credential("Bearer ", field("token")),
                    challenge: "Bearer", path: path))
        case "basic":
            let username = field("username")
            let password = field("password")
            let pair = (username ?? "") + ":" + (password ?? "")
            // A credential with a variable left unresolved cannot be encoded, and a helper with
            // neither a username nor a password names none: any well-formed Basic one then.
            let value: StringMatcher =
                pair.contains("{{") || (username ?? "").isEmpty && (password ?? "").isEmpty
                ? .matches(anyBasicCredential) : .equalTo("Basic " + Base64.encode(Array(pair.utf8)))
            return .auth(
                PostmanAuth(
                    type: type, place: .header, name: "Authorization", value: value, challenge: "Basic", path: path))
        case "apikey":
            guard let key = field("key"), !key.isEmpty, !key.contains("{{") else {
                return .unchecked(type: type, reason: "no 'key' (the header field's or query parameter's name)")
            }
            let place: Place = field("in") == "query" ? .query : .header
            if place == .header && !PostmanStubBuilder.isToken(key) {
                return .unchecked(type: type, reason: "the key '\(key)' is not a header field name")
            }
            return .auth(
                PostmanAuth(
                    type: type, place: place, name: key, value: credential("", field("value")), challenge: nil,
                    path: path))
        case "oauth2":
            let token = field("accessToken")
            if field("addTokenTo") == "queryParams" {
                return .auth(
                    PostmanAuth(
                        type: type, place: .query, name: "access_token", value: credential("", token),
                        challenge: nil, path: path))
            }
            let prefix = field("headerPrefix").map { $0.isEmpty ? "" : $0 + " " } ?? "Bearer "
            return .auth(
                PostmanAuth(
                    type: type, place: .header, name: "Authorization", value: credential(prefix, token),
                    challenge: "Bearer", path: path))
        default:
            return .unchecked(
                type: type,
                reason: "petmock requires only " + checkedTypes.map { "'\($0)'" }.joined(separator: ", ") + " auth")
        }
    }

    /// `Basic` and a base64 text (RFC 7617 §2: the user-pass, encoded): letters, digits, `+`
    /// and `/` in groups of four, the last padded with `=`.
    static let anyBasicCredential =
        "Basic (([A-Za-z0-9+/]{4})+|([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=))"

    /// The matcher of `prefix` then the value: any non-empty text where the value is missing
    /// or holds a variable left unresolved.
    private static func credential(_ prefix: String, _ value: String?) -> StringMatcher {
        guard let value, !value.isEmpty else { return .matches(RegexLiteral.escaped(prefix) + ".+") }
        return PostmanStubBuilder.matcher(prefix + value)
    }

    /// An auth type's parameters: `[{key, value}]` (v2.1) or an object (v2.0), values as text.
    static func parameters(_ value: JSONValue?) -> [String: String] {
        var result: [String: String] = [:]
        switch value {
        case .array(let entries)?:
            for entry in entries {
                guard let key = entry["key"]?.stringValue, let text = text(entry["value"]) else { continue }
                result[key] = text
            }
        case .object(let object)?:
            for member in object {
                if let text = text(member.value) { result[member.key] = text }
            }
        default:
            break
        }
        return result
    }

    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .bool(let flag)?: flag ? "true" : "false"
        case .int(let number)?: String(number)
        default: nil
        }
    }

    /// How people read it: `bearer auth (the Authorization header)`.
    var summary: String {
        "\(type) auth (" + (place == .header ? "the \(name) header" : "the query parameter '\(name)'") + ")"
    }
}
