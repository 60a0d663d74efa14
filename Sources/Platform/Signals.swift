import CSystem

/// Turning signals into readiness a poller sees: the handler only writes 8 bytes to a
/// ``WakeUpChannel`` (async-signal-safe), and the owner acts on its loop.
package enum SignalForwarding {
    /// Makes `signal` write to `channel`; returns whether the handler was installed.
    package static func forward(_ signal: Int32, to channel: WakeUpChannel) -> Bool {
        csystem_forward_signal(signal, channel.writeDescriptor) == 0
    }

    /// Restores the default disposition of `signal`.
    package static func restore(_ signal: Int32) {
        _ = csystem_restore_signal(signal)
    }
}

/// Process-wide memory settings.
package enum MemorySettings {
    /// Makes glibc serve allocations of at least `bytes` with their own mapping, so they go
    /// back to the system when freed; returns whether it took (false off glibc).
    package static func mapLargeAllocations(minimumBytes bytes: Int32) -> Bool {
        csystem_map_large_allocations(bytes) == 1
    }
}
