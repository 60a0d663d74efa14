import JSONKit
import MockEngine
import Platform
import SQLiteKit

/// What `--stateful` keeps: resources by collection (one bucket per collection path,
/// `/users/7/orders`) and id, in creation order, in memory, behind one lock, and with a state
/// file (``init(limits:seed:stateFile:collections:log:)``) in SQLite as well, each write
/// committed there before it is made in memory. Bounded in collections, items and bytes: past a
/// limit a write is refused (``Refusal``), never the store grown. One per server, one per
/// `StubSession` (in memory).
public final class ResourceStore: Sendable {
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
    private let file: StateFile?
    /// The seed's resources that were not stored, each with why (a limit, an id given twice).
    public let seedProblems: [String]

    private init(
        limits: Limits, initial: State, start: State, seedProblems: [String], file: StateFile?,
        log: (@Sendable (String) -> Void)?
    ) {
        self.limits = limits
        self.initial = initial
        state = Locked(start)
        self.seedProblems = seedProblems
        self.file = file
        self.log = log
    }

    /// An empty store, or one holding `seed` (collection path to resources and their ids, in
    /// order), within `limits`; `log` hears of each limit the first time it is reached.
    public convenience init(
        limits: Limits = Limits(), seed: [(collection: String, items: [(id: String, value: JSONValue)])] = [],
        log: (@Sendable (String) -> Void)? = nil
    ) {
        let (initial, problems) = Self.seeded(seed, limits)
        self.init(limits: limits, initial: initial, start: initial, seedProblems: problems, file: nil, log: log)
    }

    /// A store kept in the SQLite file at `path` too: started from what the file holds, or,
    /// when the file is new, from `seed` (written to it). `collections` (the document's
    /// collection paths) must be what the file was made with.
    public convenience init(
        limits: Limits = Limits(), seed: [(collection: String, items: [(id: String, value: JSONValue)])] = [],
        stateFile path: String, collections: [String], log: (@Sendable (String) -> Void)? = nil
    ) throws(StateFileError) {
        let (initial, problems) = Self.seeded(seed, limits)
        let file = try StateFile(path: path, collections: collections)
        var start = initial
        if file.isNew {
            do {
                try file.reset(collection: nil, to: Self.resources(of: initial), sequences: Self.sequences(of: initial))
            } catch {
                throw .unopenable(path: path, reason: error.message)
            }
        } else {
            start = try Self.loaded(file.load(), limits, path: path)
        }
        self.init(limits: limits, initial: initial, start: start, seedProblems: problems, file: file, log: log)
    }

    private static func seeded(
        _ seed: [(collection: String, items: [(id: String, value: JSONValue)])], _ limits: Limits
    ) -> (State, [String]) {
        var start = State()
        var problems: [String] = []
        for (collection, items) in seed {
            for (id, value) in items {
                let encoded = value.serializedBytes()
                let size = encoded.count + id.utf8.count
                switch admits(start, collection, id, size: size, limits) {
                case .success(true): add(into: &start, collection, id, encoded, size: size)
                case .success(false): problems.append("\(collection): the example with id '\(id)' repeats an id")
                case .failure(let refusal): problems.append("\(collection): the example with id '\(id)': \(refusal)")
                }
            }
        }
        return (start, problems)
    }

    private static func loaded(
        _ content: StateFile.Content, _ limits: Limits, path: String
    ) throws(StateFileError)
        -> State
    {
        var state = State()
        for resource in content.resources {
            let size = resource.encoded.count + resource.id.utf8.count
            switch admits(state, resource.collection, resource.id, size: size, limits) {
            case .success(true): add(into: &state, resource.collection, resource.id, resource.encoded, size: size)
            case .success(false):
                throw .corrupt(path: path, reason: "\(resource.collection)/\(resource.id) is stored twice")
            case .failure(let refusal): throw .overLimits(path: path, reason: refusal.description)
            }
        }
        for (collection, next) in content.sequences {
            if let bucket = state.buckets[collection] {
                state.buckets[collection]?.next = max(bucket.next, next)
            } else if state.empty < limits.collections {
                var bucket = ResourceBucket()
                bucket.next = next
                state.buckets[collection] = bucket
                state.empty += 1
            }
        }
        return state
    }

    private static func resources(of state: State) -> [(collection: String, id: String, encoded: [UInt8])] {
        state.buckets.keys.sorted().flatMap { collection in
            (state.buckets[collection]?.all ?? []).map { (collection, $0.id, $0.encoded) }
        }
    }

    private static func sequences(of state: State) -> [(collection: String, next: Int64)] {
        state.buckets.keys.sorted().compactMap { collection in state.buckets[collection].map { (collection, $0.next) } }
    }

    /// Reserves the next number of the collection's integer sequence. A collection with no
    /// bucket is not given one here (the insert that follows makes it, within the limit), so a
    /// refused or abandoned create leaves nothing behind.
    public func nextNumber(in collection: String) -> Int64 {
        state.withLock { state in
            guard let bucket = state.buckets.index(forKey: collection) else { return 1 }
            let number = state.buckets.values[bucket].next
            state.buckets.values[bucket].next = number == .max ? .max : number + 1
            return number
        }
    }

    /// Stores a new resource; false when the id is taken.
    public func insert(_ value: JSONValue, id: String, in collection: String) throws(Refusal) -> Bool {
        try insert(encoded: value.serializedBytes(), id: id, in: collection)
    }

    /// Stores a new resource whose JSON is `encoded` (made by the caller with the store's
    /// writer, `JSONValue.serializedBytes()`, outside the lock).
    func insert(encoded: [UInt8], id: String, in collection: String) throws(Refusal) -> Bool {
        let size = encoded.count + id.utf8.count
        let outcome: Result<Bool, Refusal> = state.withLock { state in
            let bucket = state.buckets.index(forKey: collection)
            let admitted = Self.admits(state, bucket, id, size: size, limits)
            guard case .success(true) = admitted else { return admitted }
            if let file {
                let next = max(state.buckets[collection]?.next ?? 1, Int64(id).map { $0 == .max ? .max : $0 + 1 } ?? 1)
                do throws(SQLiteError) {
                    try file.insert(encoded, id: id, in: collection, next: next)
                } catch {
                    return .failure(.stateFile(error.message))
                }
            }
            Self.add(into: &state, collection, bucket, id, encoded, size: size)
            return .success(true)
        }
        return try settled(outcome)
    }

    /// Whether a resource may be added: false when its id is taken, a refusal past a limit.
    private static func admits(
        _ state: State, _ collection: String, _ id: String, size: Int, _ limits: Limits
    ) -> Result<Bool, Refusal> {
        admits(state, state.buckets.index(forKey: collection), id, size: size, limits)
    }

    /// ``admits(_:_:_:size:_:)`` with the collection's bucket found (nil when it has none).
    private static func admits(
        _ state: State, _ bucket: Dictionary<String, ResourceBucket>.Index?, _ id: String, size: Int,
        _ limits: Limits
    ) -> Result<Bool, Refusal> {
        let count = bucket.map { state.buckets.values[$0].count }
        if let bucket, state.buckets.values[bucket].entry(id) != nil { return .success(false) }
        if (count ?? 0) == 0 && state.occupied >= limits.collections {
            return .failure(.collections(limit: limits.collections))
        }
        if state.items >= limits.items { return .failure(.items(limit: limits.items)) }
        if state.bytes + size > limits.bytes { return .failure(.bytes(limit: limits.bytes)) }
        return .success(true)
    }

    private static func add(into state: inout State, _ collection: String, _ id: String, _ encoded: [UInt8], size: Int)
    {
        add(into: &state, collection, state.buckets.index(forKey: collection), id, encoded, size: size)
    }

    /// ``add(into:_:_:_:size:)`` with the collection's bucket found (nil when it has none).
    private static func add(
        into state: inout State, _ collection: String, _ bucket: Dictionary<String, ResourceBucket>.Index?,
        _ id: String, _ encoded: [UInt8], size: Int
    ) {
        switch bucket.map({ state.buckets.values[$0].count }) {
        case nil: state.occupied += 1
        case 0?:
            state.occupied += 1
            state.empty -= 1
        default: break
        }
        state.version += 1
        if let bucket {
            // Changed in place: a copy of the bucket would copy the whole collection.
            state.buckets.values[bucket].add(id, encoded, bytes: size, version: state.version)
        } else {
            var new = ResourceBucket()
            new.add(id, encoded, bytes: size, version: state.version)
            state.buckets[collection] = new
        }
        state.items += 1
        state.bytes += size
    }

    /// The resource with this id.
    public func value(id: String, in collection: String) -> JSONValue? {
        encoded(id: id, in: collection).map(Self.decoded)
    }

    /// The resource with this id as its JSON, as it is sent.
    func encoded(id: String, in collection: String) -> [UInt8]? {
        state.withLock { $0.buckets[collection]?.entry(id)?.encoded }
    }

    /// The resource with this id and the number of the write that stored it.
    func entry(id: String, in collection: String) -> (value: JSONValue, version: UInt64)? {
        state.withLock { $0.buckets[collection]?.entry(id).map { ($0.encoded, $0.version) } }
            .map { (Self.decoded($0.0), $0.1) }
    }

    /// A stored resource's value, from the JSON the store's own writer made (which reads back).
    private static func decoded(_ encoded: [UInt8]) -> JSONValue {
        do {
            return try JSONValue(parsing: encoded)
        } catch {
            preconditionFailure("a stored resource does not read back: \(error)")
        }
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
        return try replace(encoded: value.serializedBytes(), id: id, in: collection, version: version)
    }

    /// Replaces a stored resource whose JSON is `encoded` when it is still at `version` (any,
    /// when nil); false when the id is unknown or the resource was written meanwhile.
    func replace(encoded: [UInt8], id: String, in collection: String, version: UInt64?) throws(Refusal) -> Bool {
        let size = encoded.count + id.utf8.count
        let outcome: Result<Bool, Refusal> = state.withLock { state in
            guard let old = state.buckets[collection]?.entry(id) else { return .success(false) }
            if let version, old.version != version { return .success(false) }
            if state.bytes - old.bytes + size > limits.bytes { return .failure(.bytes(limit: limits.bytes)) }
            if let file {
                do throws(SQLiteError) {
                    try file.replace(encoded, id: id, in: collection)
                } catch {
                    return .failure(.stateFile(error.message))
                }
            }
            state.version += 1
            state.buckets[collection]?.replace(id, encoded, bytes: size, version: state.version)
            state.bytes += size - old.bytes
            return .success(true)
        }
        return try settled(outcome)
    }

    /// Removes a resource; false when the id is unknown.
    @discardableResult
    public func remove(id: String, in collection: String) throws(Refusal) -> Bool {
        let outcome: Result<Bool, Refusal> = state.withLock { state in
            guard state.buckets[collection]?.entry(id) != nil else { return .success(false) }
            if let file {
                do throws(SQLiteError) {
                    try file.remove(id: id, in: collection)
                } catch {
                    return .failure(.stateFile(error.message))
                }
            }
            guard let old = state.buckets[collection]?.remove(id) else { return .success(false) }
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
            return .success(true)
        }
        return try settled(outcome)
    }

    /// At most `limit` resources of a collection from `offset` on, in creation order, and how
    /// many it holds; the page is copied, never the collection.
    public func page(of collection: String, offset: Int, limit: Int) -> (items: [JSONValue], total: Int) {
        let (page, total) = state.withLock { state in
            guard let bucket = state.buckets[collection] else { return ([[UInt8]](), 0) }
            return (bucket.page(offset: offset, limit: limit), bucket.count)
        }
        return (page.map(Self.decoded), total)
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

    /// Back to the document's examples, in the state file too: the whole store, or one
    /// collection (false when it is neither stored nor seeded). When the file refuses, nothing
    /// changes, `log` hears why and the error names the file.
    @discardableResult
    public func reset(collection: String? = nil) throws(StateResetError) -> Bool {
        let failure: String? = state.withLock { state in
            if let collection, state.buckets[collection] == nil && initial.buckets[collection] == nil { return "" }
            if let file {
                do throws(SQLiteError) {
                    let seeded = collection.map { key in initial.buckets[key].map { [key: $0] } ?? [:] }
                    var part = initial
                    if let seeded { part.buckets = seeded }
                    try file.reset(
                        collection: collection, to: Self.resources(of: part), sequences: Self.sequences(of: part))
                } catch {
                    return error.message
                }
            }
            guard let collection else {
                // Write numbers go on rising: a replace that read before the reset finds no match.
                let version = state.version
                state = initial
                state.version = max(version, initial.version)
                return nil
            }
            let old = state.buckets[collection]
            let seeded = initial.buckets[collection]
            state.items += (seeded?.count ?? 0) - (old?.count ?? 0)
            state.bytes += (seeded?.bytes ?? 0) - (old?.bytes ?? 0)
            state.occupied += (seeded.map { $0.count > 0 ? 1 : 0 } ?? 0) - (old.map { $0.count > 0 ? 1 : 0 } ?? 0)
            state.empty += (seeded.map { $0.count == 0 ? 1 : 0 } ?? 0) - (old.map { $0.count == 0 ? 1 : 0 } ?? 0)
            state.buckets[collection] = seeded
            state.logged = []
            return nil
        }
        switch failure {
        case nil: return true
        case ""?: return false
        case let message?:
            let error = StateResetError(file: file?.path ?? "", reason: message)
            log?("petmock: \(error)")
            throw error
        }
    }

    private func settled(_ outcome: Result<Bool, Refusal>) throws(Refusal) -> Bool {
        switch outcome {
        case .success(let done): return done
        case .failure(let refusal):
            note(refusal)
            throw refusal
        }
    }

    private func note(_ refusal: Refusal) {
        let first = state.withLock { $0.logged.insert(refusal.kind).inserted }
        guard first else { return }
        if case .stateFile = refusal {
            log?("petmock: stateful store: \(refusal); writes are refused with 500 until it can be written")
        } else {
            log?("petmock: stateful store full: \(refusal); writes are refused with 507 until a reset")
        }
    }
}
