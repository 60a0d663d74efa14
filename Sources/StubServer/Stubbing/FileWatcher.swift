/// Watches a folder tree and reports paths that changed: the one OS-specific part of hot
/// reload. Linux has ``InotifyFileWatcher``; a kqueue or FSEvents watcher for macOS would
/// implement this same protocol.
public protocol FileWatcher: Sendable {
    /// Starts watching; `onChange` gets batches of changed paths (files written, moved in,
    /// moved out or deleted; folders created or removed) on the watcher's own thread.
    func start(onChange: @escaping @Sendable ([String]) -> Void) throws(FileWatcherError)
    /// Stops watching; no `onChange` call starts after it returns.
    func stop()
}

/// Why a folder cannot be watched.
public struct FileWatcherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with the path.
    public let reason: String

    /// Creates an error.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// The file watcher for this platform.
func makePlatformFileWatcher(directories: [String]) throws(FileWatcherError) -> any FileWatcher {
    #if os(Linux)
    return InotifyFileWatcher(directories: directories)
    #else
    throw FileWatcherError(reason: "watching for changes (--watch) is only implemented on Linux so far")
    #endif
}
