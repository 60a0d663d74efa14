/// The bounds of the state extension's store: past one, a write is refused (the answer is
/// still the stub's), so no request can make the store grow without end; and how long a
/// context lives after its last write.
public struct StateLimits: Sendable, Hashable {
    /// The most contexts the store holds.
    public var maximumContexts: Int
    /// The most entries one context's list holds.
    public var maximumListEntries: Int
    /// The most bytes the store holds: names, property names and values, list entries.
    public var maximumBytes: Int
    /// How long a context lives after its last write (`recordState`, or a `deleteState` that
    /// removed a list entry): then it is deleted, as the extension's store (`CaffeineStore`,
    /// `expireAfterWrite`) deletes it, by default after 60 minutes; nil keeps contexts until
    /// they are deleted or the store is reset.
    public var contextLifetime: Duration?

    /// Creates limits; the defaults are petmock's.
    public init(
        maximumContexts: Int = 10_000, maximumListEntries: Int = 10_000, maximumBytes: Int = 64 << 20,
        contextLifetime: Duration? = .seconds(3600)
    ) {
        self.maximumContexts = maximumContexts
        self.maximumListEntries = maximumListEntries
        self.maximumBytes = maximumBytes
        self.contextLifetime = contextLifetime
    }

    /// petmock's limits: 10,000 contexts, 10,000 entries a list, 64 MiB; contexts live 60
    /// minutes after their last write.
    public static let standard = StateLimits()
}
