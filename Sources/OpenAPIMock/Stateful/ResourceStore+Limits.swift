extension ResourceStore {
    /// How much the store may hold.
    public struct Limits: Sendable, Hashable {
        /// Collection buckets (each nested collection's parent value makes one).
        public var collections: Int
        /// Resources, in all collections.
        public var items: Int
        /// Bytes of the resources' JSON (and their ids), in all.
        public var bytes: Int

        /// The defaults: 1,000 collections, 100,000 resources, 64 MiB.
        public init(collections: Int = 1_000, items: Int = 100_000, bytes: Int = 64 << 20) {
            self.collections = collections
            self.items = items
            self.bytes = bytes
        }
    }

    /// Why a write was refused: the limit it would have passed, or the state file that could
    /// not be written.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case collections(limit: Int)
        case items(limit: Int)
        case bytes(limit: Int)
        /// The state file refused the write (SQLite's message): nothing changed.
        case stateFile(String)

        public var description: String {
            switch self {
            case .collections(let limit): "the store holds its limit of \(limit) collections"
            case .items(let limit): "the store holds its limit of \(limit) resources"
            case .bytes(let limit): "the store would pass its limit of \(limit) bytes"
            case .stateFile(let message): "the state file could not be written: \(message)"
            }
        }

        var kind: String {
            switch self {
            case .collections: "collections"
            case .items: "items"
            case .bytes: "bytes"
            case .stateFile: "file"
            }
        }
    }
}
