import HTTPCore
import JSONKit
import Platform
import Templating

/// The state extension's contexts, in memory behind one lock: one store per engine, so per
/// `petmock serve`, `StubServer` and `StubSession`. Bounded by ``StateLimits``: a change
/// that would pass one is refused whole and nothing of it is written. A context expires
/// ``StateLimits/contextLifetime`` after its last write (as the extension's store does): the
/// contexts are kept in the order of their last writes, so the expired ones are the oldest,
/// and each change first deletes a few of those (at most ``sweepLimit``), a reader finds an
/// expired context absent, and a listing deletes every expired one: no request scans the
/// store, and each context is deleted once.
package final class StateContextStore: TemplateStateSource {
    private struct Entry {
        var context: StateContext
        /// The bytes of the name and the properties.
        var propertyBytes: Int
        /// The bytes of the list's entries.
        var listBytes: Int
        /// When it expires, on the clock's monotonic reading: its last write plus the lifetime.
        var expiry: UInt64 = .max
        /// The contexts written last just before and just after this one.
        var older: String?
        var newer: String?

        init(named name: String) {
            context = StateContext()
            propertyBytes = name.utf8.count
            listBytes = 0
        }
    }

    private struct Storage {
        var contexts: [String: Entry] = [:]
        var bytes = 0
        /// The context whose last write is the oldest, and the newest: the ends of the write order.
        var oldest: String?
        var newest: String?

        /// Deletes a context; false when there was none.
        @discardableResult
        mutating func remove(_ name: String) -> Bool {
            guard let entry = contexts.removeValue(forKey: name) else { return false }
            bytes -= entry.propertyBytes + entry.listBytes
            if let older = entry.older { contexts[older]?.newer = entry.newer } else { oldest = entry.newer }
            if let newer = entry.newer { contexts[newer]?.older = entry.older } else { newest = entry.older }
            return true
        }

        /// Stores a context just written, as the newest, expiring at `expiry`.
        mutating func store(_ entry: Entry, named name: String, expiry: UInt64) {
            var entry = entry
            if contexts[name] != nil {
                if let older = entry.older { contexts[older]?.newer = entry.newer } else { oldest = entry.newer }
                if let newer = entry.newer { contexts[newer]?.older = entry.older } else { newest = entry.older }
            }
            entry.expiry = expiry
            entry.older = newest
            entry.newer = nil
            if let newest { contexts[newest]?.newer = name } else { oldest = name }
            newest = name
            contexts[name] = entry
        }

        /// The context called `name`, unless it expired (then it is deleted).
        mutating func live(_ name: String, now: UInt64) -> Entry? {
            guard let entry = contexts[name] else { return nil }
            guard entry.expiry <= now else { return entry }
            remove(name)
            return nil
        }

        /// Deletes the expired contexts, oldest first, at most `limit` of them.
        mutating func sweep(now: UInt64, limit: Int) {
            var left = limit
            while left > 0, let name = oldest, let entry = contexts[name], entry.expiry <= now {
                remove(name)
                left -= 1
            }
        }
    }

    /// The most expired contexts one change deletes before it is applied.
    static let sweepLimit = 16

    /// The bounds writes stay within, and how long a context lives.
    package let limits: StateLimits
    /// Where expiry's time comes from.
    let clock: TimeSource
    private let storage = Locked(Storage())
    /// Whether a refused change was told to the server's subscribers since the last reset.
    private let refusalTold = Locked(false)

    package init(limits: StateLimits = .standard, clock: TimeSource = .system) {
        self.limits = limits
        self.clock = clock
    }

    /// The current reading, and the expiry of a context written now.
    private func expiry() -> (now: UInt64, expiry: UInt64) {
        let now = clock.monotonicNanoseconds
        guard let lifetime = limits.contextLifetime else { return (now, .max) }
        let (sum, overflow) = now.addingReportingOverflow(lifetime.nanoseconds)
        return (now, overflow ? .max : sum)
    }

    package func stateContext(named name: String) -> StateContext? {
        let now = clock.monotonicNanoseconds
        return storage.withLock { $0.live(name, now: now)?.context }
    }

    /// How many contexts exist (the expired ones deleted first).
    package var count: Int {
        let now = clock.monotonicNanoseconds
        return storage.withLock { storage in
            storage.sweep(now: now, limit: .max)
            return storage.contexts.count
        }
    }

    /// How many bytes the store holds, as the limit counts them (the expired ones deleted first).
    package var byteCount: Int {
        let now = clock.monotonicNanoseconds
        return storage.withLock { storage in
            storage.sweep(now: now, limit: .max)
            return storage.bytes
        }
    }

    /// How many contexts the store holds, the expired ones not deleted yet included.
    var heldCount: Int { storage.withLock { $0.contexts.count } }

    /// Every context, by name (the expired ones deleted first).
    package func all() -> [(name: String, context: StateContext)] {
        let now = clock.monotonicNanoseconds
        let all: [(name: String, context: StateContext)] = storage.withLock { storage in
            storage.sweep(now: now, limit: .max)
            return storage.contexts.map { (name: $0.key, context: $0.value.context) }
        }
        return all.sorted { $0.name < $1.name }
    }

    /// Deletes one context; false when there was none (or it had expired).
    @discardableResult
    package func delete(named name: String) -> Bool {
        let now = clock.monotonicNanoseconds
        return storage.withLock { storage in
            guard storage.live(name, now: now) != nil else { return false }
            return storage.remove(name)
        }
    }

    /// Deletes every context.
    package func reset() {
        storage.withLock { $0 = Storage() }
        refusalTold.withLock { $0 = false }
    }

    /// Whether the caller is the first to tell of a refused change since the last reset (the
    /// log says it once; the journal and the problems list keep every one).
    func claimRefusalLine() -> Bool {
        refusalTold.withLock { told in
            defer { told = true }
            return !told
        }
    }

    /// Applies a change; the reason it was refused (a limit), else nil. The oldest expired
    /// contexts are deleted first, at most ``sweepLimit``, so they make room.
    func apply(_ change: StateChange) -> String? {
        let (now, expiry) = expiry()
        return storage.withLock { storage in
            storage.sweep(now: now, limit: Self.sweepLimit)
            return Self.apply(change, to: &storage, limits: limits, now: now, expiry: expiry)
        }
    }

    private static func apply(
        _ change: StateChange, to storage: inout Storage, limits: StateLimits, now: UInt64, expiry: UInt64
    ) -> String? {
        switch change {
        case .write(let name, let properties):
            let existing = storage.live(name, now: now)
            if existing == nil, storage.contexts.count >= limits.maximumContexts {
                return "the store holds \(limits.maximumContexts) contexts (the limit)"
            }
            var entry = existing ?? Entry(named: name)
            var bytes = entry.propertyBytes
            for (key, value) in properties {
                if case .string(let old)? = entry.context.properties[key] {
                    bytes -= key.utf8.count + old.utf8.count
                }
                bytes += key.utf8.count + value.utf8.count
                entry.context.properties[key] = .string(value)
            }
            let total = storage.bytes - (existing?.propertyBytes ?? 0) + bytes
            guard total <= limits.maximumBytes else { return bytesRefusal(limits) }
            entry.propertyBytes = bytes
            entry.context.updateCount += 1
            storage.bytes = total
            storage.store(entry, named: name, expiry: expiry)
            return nil
        case .add(let name, let added, let first):
            let existing = storage.live(name, now: now)
            if existing == nil, storage.contexts.count >= limits.maximumContexts {
                return "the store holds \(limits.maximumContexts) contexts (the limit)"
            }
            var entry = existing ?? Entry(named: name)
            guard entry.context.list.count < limits.maximumListEntries else {
                return "the list of context '\(name)' holds \(limits.maximumListEntries) entries (the limit)"
            }
            let size = bytes(of: added)
            let added0 = existing == nil ? entry.propertyBytes : 0
            guard storage.bytes + added0 + size <= limits.maximumBytes else { return bytesRefusal(limits) }
            if first { entry.context.list.insert(added, at: 0) } else { entry.context.list.append(added) }
            entry.listBytes += size
            entry.context.updateCount += 1
            storage.bytes += added0 + size
            storage.store(entry, named: name, expiry: expiry)
            return nil
        case .deleteContexts(let names):
            for name in names { storage.remove(name) }
            return nil
        case .deleteMatching(let pattern):
            for name in storage.contexts.keys.filter({ pattern.wholeMatches($0) }) { storage.remove(name) }
            return nil
        case .deleteEntry(let name, let which):
            guard var entry = storage.live(name, now: now), !entry.context.list.isEmpty else { return nil }
            let list = entry.context.list
            let position: Int?
            switch which {
            case .first: position = 0
            case .last: position = list.count - 1
            case .index(let index):
                let resolved = index < 0 ? list.count + index : index
                position = resolved >= 0 && resolved < list.count ? resolved : nil
            case .firstWhere(let property, let value):
                position = list.firstIndex { $0[property] == .string(value) }
            }
            guard let position else { return nil }
            let removed = entry.context.list.remove(at: position)
            let size = bytes(of: removed)
            entry.listBytes -= size
            entry.context.updateCount += 1
            storage.bytes -= size
            storage.store(entry, named: name, expiry: expiry)
            return nil
        }
    }

    private static func bytesRefusal(_ limits: StateLimits) -> String {
        "the store would hold more than \(limits.maximumBytes) bytes (the limit)"
    }

    /// An entry's bytes as the limit counts them: its names and text values.
    private static func bytes(of entry: JSONObject) -> Int {
        entry.members.reduce(0) { total, member in
            total + member.key.utf8.count + (member.value.stringValue?.utf8.count ?? 0)
        }
    }
}
