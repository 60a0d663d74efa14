import JSONKit
import Platform

/// What `--stateful` keeps: resources by collection (one bucket per collection path,
/// `/users/7/orders`) and id, in creation order, in memory, behind one lock. Bounded in
/// collections, items and bytes: past a limit a write is refused (``Refusal``), never the store
/// grown. One per server, one per `StubSession`.
public final class ResourceStore: Sendable {
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

    /// Why a write was refused: the limit it would have passed.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case collections(limit: Int)
        case items(limit: Int)
        case bytes(limit: Int)

        public var description: String {
            switch self {
            case .collections(let limit): "the store holds its limit of \(limit) collections"
            case .items(let limit): "the store holds its limit of \(limit) resources"
            case .bytes(let limit): "the store would pass its limit of \(limit) bytes"
            }
        }

        var kind: String {
            switch self {
            case .collections: "collections"
            case .items: "items"
            case .bytes: "bytes"
            }
        }
    }

    struct State: Sendable {
        var buckets: [String: ResourceBucket] = [:]
        /// Buckets holding a resource: what the collections limit counts.
        var occupied = 0
        /// Buckets kept empty for their sequence alone.
        var empty = 0
        var items = 0
        var bytes = 0
        /// The number of the last write.
        var version: UInt64 = 0
        /// The limits reached (and logged) since the last reset.
        var logged: Set<String> = []
    }

    /// The limits.
    public let limits: Limits
    private let state: Locked<State>
    /// What a reset returns to: the document's examples.
    private let initial: State
    private let log: (@Sendable (String) -> Void)?
    /// The seed's resources that were not stored, each with why (a limit, an id given twice).
    public let seedProblems: [String]

    /// An empty store, or one holding `seed` (collection path to resources and their ids, in
    /// order), within `limits`; `log` hears of each limit the first time it is reached.
    public init(
        limits: Limits = Limits(), seed: [(collection: String, items: [(id: String, value: JSONValue)])] = [],
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.limits = limits
        self.log = log
        var start = State()
        var problems: [String] = []
        for (collection, items) in seed {
            for (id, value) in items {
                let size = value.serializedBytes().count + id.utf8.count
                switch Self.insert(into: &start, collection, id, value, size: size, limits) {
                case .success(true): break
                case .success(false): problems.append("\(collection): the example with id '\(id)' repeats an id")
                case .failure(let refusal): problems.append("\(collection): the example with id '\(id)': \(refusal)")
                }
            }
        }
        seedProblems = problems
        initial = start
        state = Locked(start)
    }

    /// Reserves the next number of the collection's integer sequence. A collection with no
    /// bucket is not given one here (the insert that follows makes it, within the limit), so a
    /// refused or abandoned create leaves nothing behind.
    public func nextNumber(in collection: String) -> Int64 {
        state.withLock { state in
            guard let number = state.buckets[collection]?.next else { return 1 }
            state.buckets[collection]?.next = number == .max ? .max : number + 1
            return number
        }
    }

    /// Stores a new resource; false when the id is taken.
    public func insert(_ value: JSONValue, id: String, in collection: String) throws(Refusal) -> Bool {
        try insert(value, encoded: value.serializedBytes(), id: id, in: collection)
    }

    /// Stores a new resource whose JSON is `encoded` (made by the caller, outside the lock).
    func insert(_ value: JSONValue, encoded: [UInt8], id: String, in collection: String) throws(Refusal) -> Bool {
        let size = encoded.count + id.utf8.count
        let outcome = state.withLock { state in Self.insert(into: &state, collection, id, value, size: size, limits) }
        switch outcome {
        case .success(let inserted): return inserted
        case .failure(let refusal):
            note(refusal)
            throw refusal
        }
    }

    private static func insert(
        into state: inout State, _ collection: String, _ id: String, _ value: JSONValue, size: Int, _ limits: Limits
    ) -> Result<Bool, Refusal> {
        let count = state.buckets[collection]?.count
        if count != nil, state.buckets[collection]?.entry(id) != nil { return .success(false) }
        if (count ?? 0) == 0 && state.occupied >= limits.collections {
            return .failure(.collections(limit: limits.collections))
        }
        if state.items >= limits.items { return .failure(.items(limit: limits.items)) }
        if state.bytes + size > limits.bytes { return .failure(.bytes(limit: limits.bytes)) }
        switch count {
        case nil: state.occupied += 1
        case 0?:
            state.occupied += 1
            state.empty -= 1
        default: break
        }
        state.version += 1
        // Changed in place: a copy of the bucket would copy the whole collection.
        state.buckets[collection, default: ResourceBucket()].add(id, value, bytes: size, version: state.version)
        state.items += 1
        state.bytes += size
        return .success(true)
    }

    /// The resource with this id.
    public func value(id: String, in collection: String) -> JSONValue? {
        state.withLock { $0.buckets[collection]?.entry(id)?.value }
    }

    /// The resource with this id and the number of the write that stored it.
    func entry(id: String, in collection: String) -> (value: JSONValue, version: UInt64)? {
        state.withLock { $0.buckets[collection]?.entry(id).map { ($0.value, $0.version) } }
    }

    /// Replaces a stored resource when it is still `expected` (any, when nil); false when the id
    /// is unknown or the resource changed meanwhile.
    public func replace(
        _ value: JSONValue, id: String, in collection: String, expected: JSONValue? = nil
    ) throws(Refusal) -> Bool {
        var version: UInt64?
        if let expected {
            // Compared outside the lock; the write then asks for the version compared.
            guard let old = entry(id: id, in: collection), old.value == expected else { return false }
            version = old.version
        }
        return try replace(value, encoded: value.serializedBytes(), id: id, in: collection, version: version)
    }

    /// Replaces a stored resource whose JSON is `encoded` when it is still at `version` (any,
    /// when nil); false when the id is unknown or the resource was written meanwhile.
    func replace(
        _ value: JSONValue, encoded: [UInt8], id: String, in collection: String, version: UInt64?
    ) throws(Refusal) -> Bool {
        let size = encoded.count + id.utf8.count
        let outcome: Result<Bool, Refusal> = state.withLock { state in
            guard let old = state.buckets[collection]?.entry(id) else { return .success(false) }
            if let version, old.version != version { return .success(false) }
            if state.bytes - old.bytes + size > limits.bytes { return .failure(.bytes(limit: limits.bytes)) }
            state.version += 1
            state.buckets[collection]?.replace(id, value, bytes: size, version: state.version)
            state.bytes += size - old.bytes
            return .success(true)
        }
        switch outcome {
        case .success(let replaced): return replaced
        case .failure(let refusal):
            note(refusal)
            throw refusal
        }
    }

    /// Removes a resource; false when the id is unknown.
    @discardableResult
    public func remove(id: String, in collection: String) -> Bool {
        state.withLock { state in
            guard let old = state.buckets[collection]?.remove(id) else { return false }
            state.items -= 1
            state.bytes -= old.bytes
            if state.buckets[collection]?.count == 0 {
                state.occupied -= 1
                // An emptied bucket keeps its sequence, as many as the limit of collections.
                if state.empty < limits.collections {
                    state.empty += 1
                } else {
                    state.buckets[collection] = nil
                }
            }
            return true
        }
    }

    /// At most `limit` resources of a collection from `offset` on, in creation order, and how
    /// many it holds; the page is copied, never the collection.
    public func page(of collection: String, offset: Int, limit: Int) -> (items: [JSONValue], total: Int) {
        state.withLock { state in
            guard let bucket = state.buckets[collection] else { return ([], 0) }
            return (bucket.page(offset: offset, limit: limit), bucket.count)
        }
    }

    /// Each collection's path, resources and bytes, sorted by path; with the totals.
    public func summary() -> (collections: [(collection: String, items: Int, bytes: Int)], items: Int, bytes: Int) {
        state.withLock { state in
            let collections = state.buckets.filter { $0.value.count > 0 }.map {
                ($0.key, $0.value.count, $0.value.bytes)
            }
            .sorted { $0.0 < $1.0 }
            return (collections, state.items, state.bytes)
        }
    }

    /// Back to the document's examples: the whole store, or one collection (false when it is
    /// neither stored nor seeded).
    @discardableResult
    public func reset(collection: String? = nil) -> Bool {
        state.withLock { state in
            guard let collection else {
                // Write numbers go on rising: a replace that read before the reset finds no match.
                let version = state.version
                state = initial
                state.version = max(version, initial.version)
                return true
            }
            let old = state.buckets[collection]
            let seeded = initial.buckets[collection]
            guard old != nil || seeded != nil else { return false }
            state.items += (seeded?.count ?? 0) - (old?.count ?? 0)
            state.bytes += (seeded?.bytes ?? 0) - (old?.bytes ?? 0)
            state.occupied += (seeded.map { $0.count > 0 ? 1 : 0 } ?? 0) - (old.map { $0.count > 0 ? 1 : 0 } ?? 0)
            state.empty += (seeded.map { $0.count == 0 ? 1 : 0 } ?? 0) - (old.map { $0.count == 0 ? 1 : 0 } ?? 0)
            state.buckets[collection] = seeded
            state.logged = []
            return true
        }
    }

    private func note(_ refusal: Refusal) {
        let first = state.withLock { $0.logged.insert(refusal.kind).inserted }
        if first { log?("petmock: stateful store full: \(refusal); writes are refused with 507 until a reset") }
    }
}
