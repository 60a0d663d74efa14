/// A request header the recorded mappings match on.
public struct CapturedHeader: Sendable, Hashable {
    /// The header name.
    public var name: String
    /// Whether the value is compared ignoring case.
    public var caseInsensitive: Bool

    /// Creates a captured header.
    public init(_ name: String, caseInsensitive: Bool = false) {
        self.name = name
        self.caseInsensitive = caseInsensitive
    }
}
