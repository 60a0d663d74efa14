import Platform

/// The requests the server received, newest kept: a ring of at most `capacity` entries whose
/// bytes (bodies, URLs, header fields, proxied responses) together stay under `byteBudget`
/// (the oldest go first), so memory stays bounded
/// however long the server runs and however large the requests. Capacity 0 keeps nothing. The
/// ring grows with its entries up to `capacity` (an engine that served a few requests holds a
/// few slots, not `capacity` of them), then wraps.
final class RequestJournal: Sendable {
    private struct Ring {
        /// The entries' slots: as many as were ever needed, at most `capacity`. Entries take
        /// the positions `head ..< head + count`, modulo `capacity`; while the ring still
        /// grows that range ends at `slots.count`.
        var slots: [LoggedRequest?] = []
        let capacity: Int
        var head = 0
        var count = 0
        var bytes = 0
        var sequence: UInt64 = 0

        /// Takes the oldest entry out; the caller lets go of it (after the lock, so that its
        /// memory is freed while the other loops append).
        @discardableResult
        mutating func evictOldest() -> LoggedRequest? {
            let oldest = slots[head]
            if let oldest { bytes -= oldest.retainedBytes }
            slots[head] = nil
            head = (head + 1) % capacity
            count -= 1
            return oldest
        }

        /// Puts an entry after the newest: a new slot while the ring grows, else the free one.
        mutating func append(_ entry: LoggedRequest) {
            let position = (head + count) % capacity
            if position == slots.count { slots.append(entry) } else { slots[position] = entry }
            count += 1
        }
    }

    /// The most entries kept.
    let capacity: Int
    /// The most bytes kept (``LoggedRequest/retainedBytes``), all entries together (one entry is always kept).
    let byteBudget: Int
    /// The random high half of every entry's UUID.
    let idPrefix: UInt64
    private let ring: Locked<Ring>

    init(capacity: Int, byteBudget: Int = 64 * 1024 * 1024) {
        self.capacity = max(0, capacity)
        self.byteBudget = byteBudget
        var generator = SystemRandomNumberGenerator()
        idPrefix = generator.next()
        ring = Locked(Ring(capacity: max(1, capacity)))
    }

    /// Adds `entry` with the next sequence number (whatever it holds is replaced), dropping
    /// the oldest entries when full.
    func append(_ entry: LoggedRequest) {
        guard capacity > 0 else { return }
        // The entry is made before the lock and what is evicted is released after it: the
        // lock is held to number and place an entry only, so the other loops, which append
        // per request too, seldom wait (and never for an allocation, or for freeing an old
        // entry's cold memory).
        var entry = entry
        var evicted: LoggedRequest?
        var overBudget: [LoggedRequest] = []
        ring.withLock { ring in
            ring.sequence += 1
            entry.sequence = ring.sequence
            if ring.count == capacity { evicted = ring.evictOldest() }
            ring.append(entry)
            ring.bytes += entry.retainedBytes
            while ring.bytes > byteBudget && ring.count > 1 {
                if let oldest = ring.evictOldest() { overBudget.append(oldest) }
            }
        }
        withExtendedLifetime((evicted, overBudget)) {}
    }

    /// The entries, oldest first.
    func entries() -> [LoggedRequest] {
        ring.withLock { Self.ordered($0) }
    }

    private static func ordered(_ ring: Ring) -> [LoggedRequest] {
        (0..<ring.count).compactMap { ring.slots[(ring.head + $0) % ring.capacity] }
    }

    /// How many slots the ring holds now (it grows with its entries, up to `capacity`).
    var slotCount: Int { ring.withLock { $0.slots.count } }

    /// How many entries are kept now.
    var count: Int { ring.withLock { $0.count } }

    /// Forgets every entry.
    func clear() {
        ring.withLock { ring in
            ring.slots = []
            ring.head = 0
            ring.count = 0
            ring.bytes = 0
        }
    }

    /// Forgets the entries the predicate picks; returns how many.
    @discardableResult
    func remove(where predicate: (LoggedRequest) -> Bool) -> Int {
        removing(where: predicate).count
    }

    /// Forgets the entries the predicate picks, in one pass under the lock, and returns them,
    /// oldest first.
    func removing(where predicate: (LoggedRequest) -> Bool) -> [LoggedRequest] {
        ring.withLock { ring in
            let all = Self.ordered(ring)
            var kept: [LoggedRequest] = []
            var removed: [LoggedRequest] = []
            for entry in all {
                if predicate(entry) { removed.append(entry) } else { kept.append(entry) }
            }
            guard !removed.isEmpty else { return [] }
            ring.slots = kept
            ring.head = 0
            ring.count = kept.count
            ring.bytes = kept.reduce(0) { $0 + $1.retainedBytes }
            return removed
        }
    }
}
