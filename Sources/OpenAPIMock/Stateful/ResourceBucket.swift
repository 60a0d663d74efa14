/// One collection's resources in creation order, by id: a read, an insert and a delete are
/// each O(1) (a delete leaves a hole in the order, and the order is compacted when holes make
/// up half of it, so each delete pays for its share of one compaction). A resource is kept as
/// its JSON: a read sends it as it is, and it takes a third of the memory of its value.
struct ResourceBucket: Sendable {
    struct Entry: Sendable {
        /// The resource's JSON, as the store's writer made it.
        var encoded: [UInt8]
        /// The bytes the resource counts for: its JSON and its id.
        var bytes: Int
        /// The store's write number when it was last written: a replace can ask for the one it read.
        var version: UInt64
        /// Its place in ``order``.
        var position: Int
    }

    /// Ids in creation order; nil where a resource was deleted.
    private(set) var order: [String?] = []
    private(set) var entries: [String: Entry] = [:]
    private var holes = 0
    /// The next number of the collection's integer sequence.
    var next: Int64 = 1
    private(set) var bytes = 0

    var count: Int { entries.count }

    func entry(_ id: String) -> Entry? { entries[id] }

    mutating func add(_ id: String, _ encoded: [UInt8], bytes size: Int, version: UInt64) {
        entries[id] = Entry(encoded: encoded, bytes: size, version: version, position: order.count)
        order.append(id)
        bytes += size
        // At the largest integer the sequence stays there: the creates that follow find the id taken.
        if let number = Int64(id), number >= next { next = number == .max ? .max : number + 1 }
    }

    /// Replaces an entry's value; its place in the order stays.
    mutating func replace(_ id: String, _ encoded: [UInt8], bytes size: Int, version: UInt64) {
        guard let old = entries[id] else { return }
        entries[id] = Entry(encoded: encoded, bytes: size, version: version, position: old.position)
        bytes += size - old.bytes
    }

    mutating func remove(_ id: String) -> Entry? {
        guard let old = entries.removeValue(forKey: id) else { return nil }
        order[old.position] = nil
        holes += 1
        bytes -= old.bytes
        if holes * 2 > order.count { compact() }
        return old
    }

    private mutating func compact() {
        let live = order.compactMap { $0 }
        order = live
        holes = 0
        for (position, id) in live.enumerated() { entries[id]?.position = position }
    }

    /// At most `limit` resources from `offset` on, in creation order: O(offset + limit) with no
    /// holes, else plus the holes walked over (fewer than the resources held).
    func page(offset: Int, limit: Int) -> [[UInt8]] {
        let offset = max(offset, 0)
        let limit = max(limit, 0)
        guard holes > 0 else {
            let start = min(offset, order.count)
            let end = min(start + limit, order.count)
            return order[start..<end].compactMap { $0.flatMap { entries[$0]?.encoded } }
        }
        var skipped = 0
        var page: [[UInt8]] = []
        for id in order where page.count < limit {
            guard let id else { continue }
            if skipped < offset {
                skipped += 1
                continue
            }
            if let encoded = entries[id]?.encoded { page.append(encoded) }
        }
        return page
    }

    /// The resources in creation order, with their ids.
    var all: [(id: String, encoded: [UInt8])] {
        order.compactMap { id in id.flatMap { id in entries[id].map { (id, $0.encoded) } } }
    }
}
