import Synchronization

/// The requests the server received, newest kept: a ring of at most `capacity` entries, so
/// memory stays bounded however long the server runs. Capacity 0 keeps nothing.
final class RequestJournal: Sendable {
    private struct Ring {
        var entries: [LoggedRequest?]
        var next = 0
        var count = 0
        var sequence: UInt64 = 0
    }

    /// The most entries kept.
    let capacity: Int
    /// The random high half of every entry's UUID.
    let idPrefix: UInt64
    private let ring: Mutex<Ring>

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        var generator = SystemRandomNumberGenerator()
        idPrefix = generator.next()
        ring = Mutex(Ring(entries: []))
    }

    /// Adds the entry `make` builds from the next sequence number, dropping the oldest entry
    /// when full.
    func append(_ make: (UInt64) -> LoggedRequest) {
        guard capacity > 0 else { return }
        ring.withLock { ring in
            ring.sequence += 1
            let entry = make(ring.sequence)
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.next] = entry
            }
            ring.next = (ring.next + 1) % capacity
            ring.count = min(ring.count + 1, capacity)
        }
    }

    /// The entries, oldest first.
    func entries() -> [LoggedRequest] {
        ring.withLock { Self.ordered($0, capacity: capacity) }
    }

    private static func ordered(_ ring: Ring, capacity: Int) -> [LoggedRequest] {
        guard ring.count == capacity, capacity > 0 else { return ring.entries.compactMap { $0 } }
        return (ring.entries[ring.next...] + ring.entries[..<ring.next]).compactMap { $0 }
    }

    /// How many entries are kept now.
    var count: Int { ring.withLock { $0.count } }

    /// Forgets every entry.
    func clear() {
        ring.withLock { ring in
            ring.entries.removeAll(keepingCapacity: true)
            ring.next = 0
            ring.count = 0
        }
    }

    /// Forgets the entries the predicate picks; returns how many.
    @discardableResult
    func remove(where predicate: (LoggedRequest) -> Bool) -> Int {
        ring.withLock { ring in
            let kept = Self.ordered(ring, capacity: capacity).filter { !predicate($0) }
            let removed = ring.count - kept.count
            ring.entries = kept
            ring.count = kept.count
            ring.next = kept.count % max(1, capacity)
            return removed
        }
    }
}
