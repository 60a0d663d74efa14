/// A scheme of `components/securitySchemes`: how a request proves who sends it.
public struct SecurityScheme: Sendable, Hashable {
    /// Where an API key goes.
    public enum KeyLocation: String, Sendable, Hashable {
        /// A request header, `X-API-Key: ...`.
        case header
        /// A query parameter, `?api_key=...`.
        case query
        /// A cookie, `Cookie: session=...`.
        case cookie
    }

    /// What the scheme asks for.
    public enum Kind: Sendable, Hashable {
        /// `type: apiKey`: a key under `name`, `in` a header, the query or a cookie.
        case apiKey(name: String, location: KeyLocation)
        /// `type: http`: an `Authorization` field of the `scheme` (lower case: `basic`, `bearer`,
        /// `digest`, ...).
        case http(scheme: String)
        /// `type: oauth2`: a bearer token the flows would grant.
        case oauth2
        /// `type: openIdConnect`: a bearer token the provider would grant.
        case openIdConnect
        /// `type: mutualTLS`: a client certificate (OpenAPI 3.1).
        case mutualTLS
        /// A scheme petmock cannot read: an unknown `type`, or one without what its type needs
        /// (an apiKey without `name`, say); `reason` says which.
        case unsupported(reason: String)
    }

    /// Its key in `components/securitySchemes`.
    public var name: String
    /// What it asks for.
    public var kind: Kind

    /// Creates a scheme.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// One entry of a `security` list: schemes that must all be met (AND); a list is met when
/// any of its entries is (OR). An entry without schemes (`{}`) lets anonymous requests in.
public struct SecurityRequirement: Sendable, Hashable {
    /// One scheme the entry names, with the scopes it lists.
    public struct Entry: Sendable, Hashable {
        /// The scheme's name, a key of `components/securitySchemes`.
        public var scheme: String
        /// The scopes (or roles) it lists.
        public var scopes: [String]

        /// Creates an entry.
        public init(scheme: String, scopes: [String] = []) {
            self.scheme = scheme
            self.scopes = scopes
        }
    }

    /// The schemes, in document order.
    public var entries: [Entry]

    /// Creates a requirement.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }
}

extension Contract {
    /// The scheme of `components/securitySchemes` with this name.
    public func securityScheme(named name: String) -> SecurityScheme? {
        securitySchemes.first { $0.name == name }
    }

    /// The requirements an operation's requests must meet: its own `security` when it has one
    /// (`[]` for none), else the document's; empty for anonymous access.
    public func securityRequirements(of operation: ContractOperation) -> [SecurityRequirement] {
        operation.security ?? security ?? []
    }
}
