/// Watches folder trees (and single files) and reports paths that changed: the one OS-specific part of hot
/// reload. ``InotifyFileWatcher`` (Linux) and ``PollingFileWatcher`` (everywhere) implement
/// it; a kqueue or FSEvents watcher for macOS would implement this same protocol.
package protocol FileWatcher: Sendable {
    /// Starts watching; `onChange` gets batches of changed paths (files written, moved in,
    /// moved out or deleted; folders created or removed) on the watcher's own thread.
    func start(onChange: @escaping @Sendable ([String]) -> Void) throws(FileWatcherError)
    /// Stops watching; no `onChange` call starts after it returns.
    func stop()
}

/// Why a folder cannot be watched.
public struct FileWatcherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with the path.
    package let reason: String

    /// Creates an error.
    package init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Which ``FileWatcher`` to use, chosen at run time.
public enum FileWatcherKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `PETKIT_WATCHER` when it is set, else inotify on Linux and polling elsewhere.
    case automatic
    /// Linux's inotify: events as they happen (Linux only).
    case inotify
    /// A scan of the trees every interval, comparing each entry's inode, size and times.
    case polling

    /// The environment variable ``automatic`` reads: `inotify` or `polling`.
    package static let environmentVariable = "PETKIT_WATCHER"

    public var description: String { rawValue }

    /// The watcher this kind stands for: itself, or for ``automatic`` the environment's choice
    /// or the system's best. An unknown value in the environment is an error naming it.
    package func resolved(
        environment: (String) -> String? = PlatformEnvironment.value
    ) throws(FileWatcherError) -> FileWatcherKind {
        guard self == .automatic else { return self }
        if let value = environment(Self.environmentVariable), !value.isEmpty {
            guard let kind = FileWatcherKind(rawValue: value), kind != .automatic else {
                throw FileWatcherError(
                    reason: "Invalid \(Self.environmentVariable): expected 'inotify' or 'polling', found '\(value)'")
            }
            return kind
        }
        #if os(Linux)
        return .inotify
        #else
        return .polling
        #endif
    }

    /// A watcher of this kind for the trees under `directories` and the single `files` (each
    /// reported by the path given here when it is written, replaced or removed; nothing else in
    /// its folder is watched), not started yet.
    package func makeWatcher(
        directories: [String], files: [String] = [], environment: (String) -> String? = PlatformEnvironment.value
    ) throws(FileWatcherError) -> any FileWatcher {
        switch try resolved(environment: environment) {
        case .inotify:
            #if os(Linux)
            return InotifyFileWatcher(directories: directories, files: files)
            #else
            throw FileWatcherError(reason: "the inotify watcher exists only on Linux; use 'polling'")
            #endif
        case .polling, .automatic:
            return PollingFileWatcher(directories: directories, files: files)
        }
    }
}
