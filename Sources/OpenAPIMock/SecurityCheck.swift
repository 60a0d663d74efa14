import APISchema
import HTTPCore
import MockEngine

/// Checks a request against an operation's security requirements, as Prism does: each
/// requirement is a set of schemes that must all be met (AND), and the request passes when
/// any requirement is (OR); an empty requirement (`{}`), or none at all, lets anyone in.
/// Credentials are checked for presence and form (``CredentialForm``), never for their value.
///
/// ```swift
/// let check = SecurityCheck(alternatives: [[SecurityScheme(name: "key", kind: .apiKey(name: "X-Key", location: .header))]])
/// check.refusal(headers: [:], query: nil)?.challenges  // ["ApiKey realm=\"petmock\", name=\"X-Key\", in=\"header\""]
/// ```
///
/// A scheme petmock cannot check (`mutualTLS`, an unknown type, a name the document does not
/// define) counts as met; ``problems(in:)`` lists them when the document loads.
public struct SecurityCheck: Sendable {
    /// Why a request is refused: each unmet scheme of every requirement as a violation, and the
    /// `WWW-Authenticate` challenges naming them, each once, in order.
    public struct Refusal: Sendable, Hashable {
        /// The unmet schemes, where their credentials go, what was expected and found there.
        public var violations: [RequestViolation]
        /// `Basic realm="petmock"`, `Bearer`, `ApiKey realm="petmock", name="X-Key", in="header"`.
        public var challenges: [String]

        /// The value of the `WWW-Authenticate` field: the challenges joined by `, `.
        public var wwwAuthenticate: String { challenges.joined(separator: ", ") }
    }

    /// The realm petmock names in its challenges.
    public static let realm = "petmock"

    /// The requirements, each the schemes it names (resolved), in document order.
    public let alternatives: [[SecurityScheme]]
    /// The realm the challenges name; nil names none (`Basic`, `ApiKey name="X-Key", ...`).
    public let realm: String?

    /// A check of these alternatives (each an AND of schemes; any one is enough), whose
    /// challenges name `realm`.
    public init(alternatives: [[SecurityScheme]], realm: String? = SecurityCheck.realm) {
        self.alternatives = alternatives
        self.realm = realm
    }

    /// The check of an operation of `contract`: its requirements, or the document's, with each
    /// name resolved in `components/securitySchemes` (a name not defined there is not checked).
    public init(_ operation: ContractOperation, in contract: Contract, realm: String? = SecurityCheck.realm) {
        self.realm = realm
        alternatives = contract.securityRequirements(of: operation).map { requirement in
            requirement.entries.map { entry in
                contract.securityScheme(named: entry.scheme)
                    ?? SecurityScheme(name: entry.scheme, kind: .unsupported(reason: "not defined"))
            }
        }
    }

    /// Whether every request passes: no requirement, or an empty one.
    public var admitsAnyone: Bool {
        alternatives.isEmpty || alternatives.contains { $0.allSatisfy { !Self.isChecked($0.kind) } }
    }

    /// Why a request with these header fields and this raw query (after `?`) does not meet
    /// any requirement; nil when it meets one.
    public func refusal(headers: HTTPHeaders, query: Substring?) -> Refusal? {
        guard !admitsAnyone else { return nil }
        var reader = CredentialReader(headers: headers, query: query)
        var violations: [RequestViolation] = []
        var challenges: [String] = []
        for (number, schemes) in alternatives.enumerated() {
            var unmet: [RequestViolation] = []
            for scheme in schemes {
                guard let violation = reader.violation(of: scheme) else { continue }
                unmet.append(violation)
                if let challenge = Self.challenge(for: scheme, realm: realm), !challenges.contains(challenge) {
                    challenges.append(challenge)
                }
            }
            if unmet.isEmpty { return nil }
            if alternatives.count > 1 {
                for index in unmet.indices {
                    unmet[index].message += " (requirement \(number + 1) of \(alternatives.count))"
                }
            }
            violations += unmet
        }
        return Refusal(violations: violations, challenges: challenges)
    }

    /// Whether petmock reads credentials for a scheme: not for `mutualTLS` (plain HTTP has no
    /// client certificate) nor for a scheme it cannot read.
    static func isChecked(_ kind: SecurityScheme.Kind) -> Bool {
        switch kind {
        case .apiKey, .http, .oauth2, .openIdConnect: true
        case .mutualTLS, .unsupported: false
        }
    }

    /// The `WWW-Authenticate` challenge naming a scheme (RFC 9110 §11.6.1): `Basic
    /// realm="petmock"`, `Bearer` (for oauth2 and openIdConnect too: the token they grant is a
    /// bearer token, RFC 6750), `Digest realm="petmock", nonce="petmock"`, another http scheme
    /// by its name, and for an API key `ApiKey` with its `name` and where it goes (`in`);
    /// without a realm when `realm` is nil.
    static func challenge(for scheme: SecurityScheme, realm: String?) -> String? {
        let named = realm.map { "realm=\(quoted($0))" }
        func with(_ scheme: String, _ parameters: [String?]) -> String {
            let list = parameters.compactMap { $0 }
            return list.isEmpty ? scheme : scheme + " " + list.joined(separator: ", ")
        }
        switch scheme.kind {
        case .apiKey(let name, let location):
            return with("ApiKey", [named, "name=\(quoted(name))", "in=\"\(location.rawValue)\""])
        case .http(let name):
            switch name {
            case "basic": return with("Basic", [named])
            case "bearer": return "Bearer"
            case "digest": return with("Digest", [named, "nonce=\"\(Self.realm)\""])
            default:
                let token = String(decoding: name.utf8.filter(\.isTokenCharacter), as: UTF8.self)
                guard let first = token.first else { return nil }
                return with(first.uppercased() + token.dropFirst(), [named])
            }
        case .oauth2, .openIdConnect: return "Bearer"
        case .mutualTLS, .unsupported: return nil
        }
    }

    /// A quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, control characters left out.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
            if scalar == "\"" || scalar == "\\" { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }
}

/// Reads a request's credentials once each: the `Authorization` fields, the query's pairs and
/// the cookies, parsed only when a scheme asks for them.
struct CredentialReader {
    let headers: HTTPHeaders
    let query: Substring?
    private var queryPairs: [(name: String, value: String)]?
    private var cookies: [(name: String, value: String)]?

    init(headers: HTTPHeaders, query: Substring?) {
        self.headers = headers
        self.query = query
    }

    /// How the request fails a scheme; nil when it meets it.
    mutating func violation(of scheme: SecurityScheme) -> RequestViolation? {
        let label = "security scheme '\(scheme.name)'"
        switch scheme.kind {
        case .apiKey(let name, let location):
            let values: [String]
            let place: String
            switch location {
            case .header:
                values = headers.values(name: name)
                place = "the \(name) header"
            case .query:
                if queryPairs == nil { queryPairs = query.map(QueryParameters.parse) ?? [] }
                values = queryPairs?.filter { $0.name == name }.map(\.value) ?? []
                place = "the query parameter '\(name)'"
            case .cookie:
                if cookies == nil { cookies = headers.cookiePairs }
                values = cookies?.first { $0.name == name }.map { [$0.value] } ?? []
                place = "the cookie '\(name)'"
            }
            if values.contains(where: CredentialForm.isKey) { return nil }
            return RequestViolation(
                location: "\(location.rawValue).\(name)", expected: "an API key (\(label))",
                found: values.isEmpty ? "nothing" : "an empty value",
                message: "the request carries no API key in \(place), as \(label) requires")
        case .http(let name):
            return authorization(scheme: name, label: label)
        case .oauth2, .openIdConnect:
            return authorization(scheme: "bearer", label: label)
        case .mutualTLS, .unsupported:
            return nil
        }
    }

    /// How the `Authorization` fields fail an HTTP authentication scheme; nil when one meets it.
    private func authorization(scheme: String, label: String) -> RequestViolation? {
        let values = headers.values(name: "Authorization")
        if values.contains(where: { CredentialForm.authorization($0, meets: scheme) }) { return nil }
        let name = Self.displayName(scheme)
        let expected: String
        switch scheme {
        case "basic": expected = "Basic credentials, base64 of user:password (\(label))"
        case "bearer": expected = "a Bearer token (\(label))"
        default: expected = "\(name) credentials (\(label))"
        }
        guard let sent = values.first else {
            return RequestViolation(
                location: "header.Authorization", expected: expected, found: "nothing",
                message: "the request has no Authorization header; \(label) requires \(name) credentials")
        }
        let reason: String
        if let (sentScheme, _) = CredentialForm.authorization(sent), !sentScheme.equalsIgnoringASCIICase(scheme) {
            reason = "its scheme is not \(name)"
        } else if scheme == "basic" {
            reason = "its credentials are not base64 of user:password"
        } else if scheme == "bearer" {
            reason = "its token is empty or not a token68"
        } else {
            reason = "it carries no credentials after the scheme"
        }
        // The credentials themselves never go into the answer or the journal: the scheme only.
        let found =
            CredentialForm.authorization(sent).map {
                "\(ViolationText.quoted(String($0.0))) with credentials (not shown)"
            }
            ?? "a value with no scheme (not shown)"
        return RequestViolation(
            location: "header.Authorization", expected: expected, found: found,
            message: "the Authorization header does not meet \(label): \(reason)")
    }

    /// `Basic`, `Bearer`, `Digest`: a scheme's name as written in a challenge.
    static func displayName(_ scheme: String) -> String {
        guard let first = scheme.first else { return scheme }
        return first.uppercased() + scheme.dropFirst()
    }
}
