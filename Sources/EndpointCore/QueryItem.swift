import HTTPCore

/// A name/value pair of a query string or a form body.
public struct QueryItem: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The name, not yet percent-encoded.
    public var name: String
    /// The value, not yet percent-encoded.
    public var value: String

    /// Creates a pair.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Creates a pair from `["name", "value"]`; a missing value is empty.
    public init(arrayLiteral elements: String...) {
        self.init(elements.first ?? "", elements.dropFirst().first ?? "")
    }

    /// The pairs encoded as `application/x-www-form-urlencoded`: `a=1&b=two+words`.
    public static func formEncoded(_ items: [QueryItem]) -> String {
        items.map { percentEncoded($0.name, spaceAsPlus: true) + "=" + percentEncoded($0.value, spaceAsPlus: true) }
            .joined(separator: "&")
    }

    /// The text percent-encoded (HTTPCore's one encoder; see `percentEncoded(spaceAsPlus:keeping:)`).
    static func percentEncoded(_ text: String, spaceAsPlus: Bool = false, keeping extra: String = "") -> String {
        text.percentEncoded(spaceAsPlus: spaceAsPlus, keeping: extra)
    }
}
