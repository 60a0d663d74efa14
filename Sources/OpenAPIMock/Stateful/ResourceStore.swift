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

    struct Bucket: Sendable {
        var order: [String] = []
        var values: [String: (value: JSONValue, bytes: Int)] = [:]
        /// The next number of the collection's integer sequence.
        var next: Int64 = 1
        var bytes = 0

        mutating func add(_ id: String, _ value: JSONValue, size: Int) {
            order.append(id)
            values[id] = (value, size)
            bytes += size
            if let number = Int64(id), number >= next { next = number + 1 }
        }

        mutating func drop(_ id: String, size: Int) {
            if let index = order.lastIndex(of: id) { order.remove(at: index) }
            bytes -= size
        }
    }

    struct State: Sendable {
        var buckets: [String: Bucket] = [:]
        var items = 0
        var bytes = 0
        /// The limits reached (and logged) since the last reset.
        var logged: Set<String> = []
    }

    /// The limits.
    public let limits: Limits
    private let state: Locked<State>
    /// What a reset returns to: the document's examples.
    private let initial: State
    private let log: (@Sendable (String) -> Void)?

    /// An empty store, or one holding `seed` (collection path to resources and their ids, in
    /// order), within `limits`; `log` hears of each limit the first time it is reached.
    public init(
        limits: Limits = Limits(), seed: [(collection: String, items: [(id: String, value: JSONValue)])] = [],
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.limits = limits
        self.log = log
        var start = State()
        for (collection, items) in seed {
            for (id, value) in items {
                _ = Self.insert(into: &start, collection, id, value, limits)
            }
        }
        initial = start
        state = Locked(start)
    }

    /// Reserves the next number of the collection's integer sequence.
    public func nextNumber(in collection: String) -> Int64 {
        state.withLock { state in
            // No bucket is made past the limit (the insert that follows is refused).
            guard state.buckets[collection] != nil || state.buckets.count < limits.collections else { return 1 }
            let number = state.buckets[collection]?.next ?? 1
            state.buckets[collection, default: Bucket()].next = number + 1
            return number
        }
    }

    /// Stores a new resource; false when the id is taken.
    public func insert(_ value: JSONValue, id: String, in collection: String) throws(Refusal) -> Bool {
        let outcome = state.withLock { state in Self.insert(into: &state, collection, id, value, limits) }
        switch outcome {
        case .success(let inserted): return inserted
        case .failure(let refusal):
            note(refusal)
            throw refusal
        }
    }

    private static func insert(
        into state: inout State, _ collection: String, _ id: String, _ value: JSONValue, _ limits: Limits
    ) -> Result<Bool, Refusal> {
        let size = value.serializedBytes().count + id.utf8.count
        let exists = state.buckets[collection] != nil
        if exists, state.buckets[collection]?.values[id] != nil { return .success(false) }
        if !exists && state.buckets.count >= limits.collections {
            return .failure(.collections(limit: limits.collections))
        }
        if state.items >= limits.items { return .failure(.items(limit: limits.items)) }
        if state.bytes + size > limits.bytes { return .failure(.bytes(limit: limits.bytes)) }
        // Changed in place: a copy of the bucket would copy the whole collection.
        state.buckets[collection, default: Bucket()].add(id, value, size: size)
        state.items += 1
        state.bytes += size
        return .success(true)
    }

    /// The resource with this id.
    public func value(id: String, in collection: String) -> JSONValue? {
        state.withLock { $0.buckets[collection]?.values[id]?.value }
    }

    /// Replaces a stored resource when it is still `expected` (any, when nil); false when the id
    /// is unknown or the resource changed meanwhile.
    public func replace(
        _ value: JSONValue, id: String, in collection: String, expected: JSONValue? = nil
    ) throws(Refusal) -> Bool {
        let size = value.serializedBytes().count + id.utf8.count
        let outcome: Result<Bool, Refusal> = state.withLock { state in
            guard let old = state.buckets[collection]?.values[id] else { return .success(false) }
            if let expected, old.value != expected { return .success(false) }
            if state.bytes - old.bytes + size > limits.bytes { return .failure(.bytes(limit: limits.bytes)) }
            state.buckets[collection]?.values[id] = (value, size)
            state.buckets[collection]?.bytes += size - old.bytes
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
            guard let old = state.buckets[collection]?.values.removeValue(forKey: id) else { return false }
            state.buckets[collection]?.drop(id, size: old.bytes)
            state.items -= 1
            state.bytes -= old.bytes
            return true
        }
    }

    /// At most `limit` resources of a collection from `offset` on, in creation order, and how
    /// many it holds; the page is copied, never the collection.
    public func page(of collection: String, offset: Int, limit: Int) -> (items: [JSONValue], total: Int) {
        state.withLock { state in
            guard let bucket = state.buckets[collection] else { return ([], 0) }
            let start = min(max(offset, 0), bucket.order.count)
            let end = min(start + max(limit, 0), bucket.order.count)
            return (bucket.order[start..<end].compactMap { bucket.values[$0]?.value }, bucket.order.count)
        }
    }

    /// Each collection's path, resources and bytes, sorted by path; with the totals.
    public func summary() -> (collections: [(collection: String, items: Int, bytes: Int)], items: Int, bytes: Int) {
        state.withLock { state in
            let collections = state.buckets.filter { !$0.value.order.isEmpty }.map {
                ($0.key, $0.value.order.count, $0.value.bytes)
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
                state = initial
                return true
            }
            let old = state.buckets[collection]
            let seeded = initial.buckets[collection]
            guard old != nil || seeded != nil else { return false }
            state.items += (seeded?.order.count ?? 0) - (old?.order.count ?? 0)
            state.bytes += (seeded?.bytes ?? 0) - (old?.bytes ?? 0)
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
