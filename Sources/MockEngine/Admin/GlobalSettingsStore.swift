import Platform
import Synchronization

/// The server's ``GlobalSettings``, changed under a lock and read per stub answer: whether any
/// global delay is set is kept aside as an atomic flag, so the answers of a server without
/// one (the usual case) take no lock for it.
final class GlobalSettingsStore: Sendable {
    private let settings = Locked(GlobalSettings())
    private let delays = Atomic<Bool>(false)

    /// The settings now.
    var current: GlobalSettings { settings.withLock { $0 } }

    /// The settings when they delay anything, else nil (without a lock).
    var delaying: GlobalSettings? {
        guard delays.load(ordering: .acquiring) else { return nil }
        return settings.withLock { $0.delaysNothing ? nil : $0 }
    }

    /// Changes the settings with `change`, atomically; its error leaves them as they were.
    func update<Failure: Error>(
        _ change: (inout GlobalSettings) throws(Failure) -> Void
    ) throws(Failure) -> GlobalSettings {
        let result = settings.withLock { current -> Result<GlobalSettings, Failure> in
            var changed = current
            do throws(Failure) {
                try change(&changed)
            } catch {
                return .failure(error)
            }
            current = changed
            delays.store(!changed.delaysNothing, ordering: .releasing)
            return .success(changed)
        }
        return try result.get()
    }
}
