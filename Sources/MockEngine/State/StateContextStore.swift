import JSONKit
import Platform
import Templating

/// The state extension's contexts, in memory behind one lock: one store per engine, so per
/// `petmock serve`, `StubServer` and `StubSession`. Bounded by ``StateLimits``: a change
/// that would pass one is refused whole and nothing of it is written.
package final class StateContextStore: TemplateStateSource {
    private struct Entry {
        var context: StateContext
        /// The bytes of the name and the properties.
        var propertyBytes: Int
        /// The bytes of the list's entries.
        var listBytes: Int
    }

    private struct Storage {
        var contexts: [String: Entry] = [:]
        var bytes = 0
    }

    /// The bounds writes stay within.
    package let limits: StateLimits
    private let storage = Locked(Storage())
    /// Whether a refused change was told to the server's subscribers since the last reset.
    private let refusalTold = Locked(false)

    package init(limits: StateLimits = .standard) {
        self.limits = limits
    }

    package func stateContext(named name: String) -> StateContext? {
        storage.withLock { $0.contexts[name]?.context }
    }

    /// How many contexts exist.
    package var count: Int { storage.withLock { $0.contexts.count } }

    /// How many bytes the store holds, as the limit counts them.
    package var byteCount: Int { storage.withLock { $0.bytes } }

    /// Every context, by name.
    package func all() -> [(name: String, context: StateContext)] {
        storage.withLock { storage in storage.contexts.map { ($0.key, $0.value.context) } }
            .sorted { $0.name < $1.name }
    }

    /// Deletes one context; false when there was none.
    @discardableResult
    package func delete(named name: String) -> Bool {
        storage.withLock { storage in
            guard let entry = storage.contexts.removeValue(forKey: name) else { return false }
            storage.bytes -= entry.propertyBytes + entry.listBytes
            return true
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

    /// Applies a change; the reason it was refused (a limit), else nil.
    func apply(_ change: StateChange) -> String? {
        storage.withLock { storage in Self.apply(change, to: &storage, limits: limits) }
    }

    private static func apply(_ change: StateChange, to storage: inout Storage, limits: StateLimits) -> String? {
        switch change {
        case .write(let name, let properties):
            var entry =
                storage.contexts[name] ?? Entry(context: StateContext(), propertyBytes: name.utf8.count, listBytes: 0)
            if storage.contexts[name] == nil, storage.contexts.count >= limits.maximumContexts {
                return "the store holds \(limits.maximumContexts) contexts (the limit)"
            }
            var bytes = entry.propertyBytes
            for (key, value) in properties {
                if case .string(let old)? = entry.context.properties[key] {
                    bytes -= key.utf8.count + old.utf8.count
                }
                bytes += key.utf8.count + value.utf8.count
                entry.context.properties[key] = .string(value)
            }
            let total = storage.bytes - (storage.contexts[name].map { $0.propertyBytes } ?? 0) + bytes
            guard total <= limits.maximumBytes else { return bytesRefusal(limits) }
            entry.propertyBytes = bytes
            entry.context.updateCount += 1
            storage.bytes = total
            storage.contexts[name] = entry
            return nil
        case .add(let name, let added, let first):
            let existing = storage.contexts[name]
            if existing == nil, storage.contexts.count >= limits.maximumContexts {
                return "the store holds \(limits.maximumContexts) contexts (the limit)"
            }
            var entry = existing ?? Entry(context: StateContext(), propertyBytes: name.utf8.count, listBytes: 0)
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
            storage.contexts[name] = entry
            return nil
        case .deleteContexts(let names):
            for name in names {
                if let entry = storage.contexts.removeValue(forKey: name) {
                    storage.bytes -= entry.propertyBytes + entry.listBytes
                }
            }
            return nil
        case .deleteMatching(let pattern):
            for name in storage.contexts.keys where pattern.wholeMatches(name) {
                if let entry = storage.contexts.removeValue(forKey: name) {
                    storage.bytes -= entry.propertyBytes + entry.listBytes
                }
            }
            return nil
        case .deleteEntry(let name, let which):
            guard var entry = storage.contexts[name], !entry.context.list.isEmpty else { return nil }
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
            storage.contexts[name] = entry
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
