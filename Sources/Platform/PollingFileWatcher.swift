#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``FileWatcher`` for any POSIX system: a thread scans the trees every ``interval`` and
/// reports the entries whose inode, size or times changed, that appeared or that went, once
/// two scans in a row agree (so a file is not reported half written). Each
/// scan is bounded (``FileTreeSnapshot/maxEntries`` entries, ``FileTreeSnapshot/maxDepth``
/// levels): a tree past the bound is refused at start, and one that grows past it later is
/// reported once on standard error and watched as far as the bound reaches.
package final class PollingFileWatcher: FileWatcher, @unchecked Sendable {
    // Safe to share: `reported`, `previous`, `onChange` and `warned` are touched only by the watcher
    // thread once it runs (start() sets them before creating it); `stopChannel` and `thread`
    // are written in start() before the thread runs and only read afterwards; `phase` is
    // guarded by its lock.
    private let directories: [String]
    private let files: [String]
    /// How long the watcher waits between scans.
    package let interval: Duration
    /// The tree as last reported, and as the last scan saw it.
    private var reported = FileTreeSnapshot(directories: [])
    private var previous = FileTreeSnapshot(directories: [])
    private var onChange: (@Sendable ([String]) -> Void)?
    private var stopChannel: WakeUpChannel?
    private var thread: PlatformThread?
    private var warned = false
    /// The bound of each scan (lowered by tests).
    var entryLimit = FileTreeSnapshot.maxEntries
    /// 0 idle, 1 running, 2 stopped.
    private let phase = Locked(0)

    /// Creates a watcher for the trees under `directories` and the single `files` (those that
    /// exist at each scan).
    package init(directories: [String], files: [String] = [], interval: Duration = .milliseconds(200)) {
        self.directories = directories
        self.files = files
        self.interval = interval
    }

    deinit {
        stop()
    }

    package func start(onChange: @escaping @Sendable ([String]) -> Void) throws(FileWatcherError) {
        let idle = phase.withLock { phase in
            defer { if phase == 0 { phase = 1 } }
            return phase == 0
        }
        guard idle else { throw FileWatcherError(reason: "the watcher was already started") }
        let first = FileTreeSnapshot(directories: directories, files: files, maxEntries: entryLimit)
        guard !first.truncated else {
            phase.withLock { $0 = 2 }
            throw FileWatcherError(reason: boundMessage)
        }
        do {
            stopChannel = try WakeUpChannel(.pipe)
        } catch {
            phase.withLock { $0 = 2 }
            throw FileWatcherError(reason: "cannot create the watcher's stop channel: \(error)")
        }
        reported = first
        previous = first
        self.onChange = onChange
        do {
            thread = try PlatformThread.start { self.run() }
        } catch {
            phase.withLock { $0 = 2 }
            stopChannel?.close()
            throw FileWatcherError(reason: "cannot start the watcher thread: \(error)")
        }
    }

    package func stop() {
        let running = phase.withLock { phase in
            defer { phase = 2 }
            return phase == 1
        }
        guard running else { return }
        stopChannel?.signal()
        thread?.join()
        stopChannel?.close()
    }

    private func run() {
        guard let stopChannel else { return }
        var stopEntry = pollfd(fd: stopChannel.readDescriptor, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = interval.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        while true {
            let ready = poll(&stopEntry, 1, max(1, milliseconds))
            if ready < 0 && errno == EINTR { continue }
            if ready != 0 { return }
            let next = FileTreeSnapshot(directories: directories, files: files, maxEntries: entryLimit)
            if next.truncated && !warned {
                warned = true
                let line = Array("warning: \(boundMessage); changes past the bound are not seen\n".utf8)
                _ = line.withUnsafeBytes { Descriptor.write(2, $0.baseAddress, $0.count) }
            }
            let changed = next.settledChanges(since: reported, previous: previous)
            reported.adopt(changed, from: next)
            previous = next
            if !changed.isEmpty { onChange?(changed) }
        }
    }

    private var boundMessage: String {
        "the trees under \(directories.map { "'\($0)'" }.joined(separator: ", ")) hold more than "
            + "\(entryLimit) entries or go deeper than \(FileTreeSnapshot.maxDepth) levels, "
            + "the most the polling watcher scans"
    }
}
