/// The bounds of the state extension's store: past one, a write is refused (the answer is
/// still the stub's), so no request can make the store grow without end.
public struct StateLimits: Sendable, Hashable {
    /// The most contexts the store holds.
    public var maximumContexts: Int
    /// The most entries one context's list holds.
    public var maximumListEntries: Int
    /// The most bytes the store holds: names, property names and values, list entries.
    public var maximumBytes: Int

    /// Creates limits; the defaults are petmock's.
    public init(maximumContexts: Int = 10_000, maximumListEntries: Int = 10_000, maximumBytes: Int = 64 << 20) {
        self.maximumContexts = maximumContexts
        self.maximumListEntries = maximumListEntries
        self.maximumBytes = maximumBytes
    }

    /// petmock's limits: 10,000 contexts, 10,000 entries a list, 64 MiB.
    public static let standard = StateLimits()
}
