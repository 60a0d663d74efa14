import Platform

/// The hosts alive in this process, by index: how a ``HostURLProtocol``, which Foundation
/// creates itself, finds the host its class was made for.
///
/// The table only maps a host's own index to that host (held weakly); it decides no answer.
/// Indexes are never reused, so the class of a released host finds nothing and its request
/// fails, rather than being answered by a host made later.
enum StubSessionRegistry {
    private final class WeakHost: Sendable {
        weak let host: StubURLSessionHost?
        init(_ host: StubURLSessionHost) { self.host = host }
    }

    private struct Table {
        /// The next host's index (0 is `StubHostKeyRoot` alone, left unused).
        var next = 1
        var hosts: [Int: WeakHost] = [:]
    }

    private static let table = Locked(Table())

    /// A new index, for a host about to be made.
    static func newIndex() -> Int {
        table.withLock { table in
            defer { table.next += 1 }
            return table.next
        }
    }

    /// Registers `host` under its index.
    static func register(_ host: StubURLSessionHost) {
        let entry = WeakHost(host)
        table.withLock { $0.hosts[host.index] = entry }
    }

    /// Forgets a released host's index.
    static func remove(index: Int) {
        table.withLock { _ = $0.hosts.removeValue(forKey: index) }
    }

    /// The live host with this index, or nil.
    static func host(index: Int) -> StubURLSessionHost? {
        table.withLock { $0.hosts[index]?.host }
    }
}
