#if os(Linux)
import CSystem
import Glibc

/// A ``FileWatcher`` on Linux's inotify: one watch per folder in the tree (new folders get
/// theirs as they appear), and for each single file one on its folder that reports that name
/// only, read by a dedicated thread that blocks in `poll` on the inotify
/// descriptor and a wake-up channel used to stop it.
package final class InotifyFileWatcher: FileWatcher, @unchecked Sendable {
    // Safe to share: `inotify`, `stopEvent` and `thread` are written in start() before the
    // thread runs and only read afterwards; `folders` and `onChange` are touched only by the
    // watcher thread once it runs (start() fills `folders` before creating it); `stop()`
    // only writes to the eventfd and joins. `phase` is guarded by `lock`.
    private let directories: [String]
    private let files: [String]
    /// The folders of single files that no tree covers, by watch: the names reported there,
    /// each with the path it was given as.
    private var fileFolders: [Int32: [String: String]] = [:]
    private var inotify: Int32 = -1
    private var stopEvent: WakeUpChannel?
    private var folders: [Int32: String] = [:]
    private var onChange: (@Sendable ([String]) -> Void)?
    private var thread: pthread_t?
    /// 0 idle, 1 running, 2 stopped.
    private let phase = Locked(0)

    private static let mask: UInt32 =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE_SELF)

    /// Creates a watcher for the trees under `directories` (those that exist when it starts) and
    /// the single `files` (whose folders exist when it starts).
    package init(directories: [String], files: [String] = []) {
        self.directories = directories
        self.files = files
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
        do throws(FileWatcherError) {
            inotify = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            guard inotify >= 0 else { throw failure("inotify_init1") }
            do {
                stopEvent = try WakeUpChannel()
            } catch {
                throw FileWatcherError(reason: "cannot create the watcher's stop channel: \(error)")
            }
            var visited: Set<Int32> = []
            for directory in directories where FileSystem.kind(of: directory) == .directory {
                guard addWatches(under: directory, reportFiles: nil, visited: &visited) else {
                    throw FileWatcherError(reason: "cannot watch '\(directory)': \(String(cString: strerror(errno)))")
                }
            }
            for file in files {
                let folder = FileSystem.directory(of: file)
                let name = FileSystem.lastComponent(of: file)
                let watch = inotify_add_watch(inotify, folder, Self.mask)
                guard watch >= 0 else {
                    throw FileWatcherError(reason: "cannot watch '\(file)': \(String(cString: strerror(errno)))")
                }
                // A folder a tree already covers reports every file in it.
                if folders[watch] == nil { fileFolders[watch, default: [:]][name] = file }
            }
        } catch {
            abandon()
            throw error
        }
        self.onChange = onChange
        let box = Unmanaged.passRetained(self)
        var created = pthread_t()
        let result = pthread_create(
            &created, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<InotifyFileWatcher>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            abandon()
            throw FileWatcherError(reason: "cannot start the watcher thread: \(String(cString: strerror(result)))")
        }
        thread = created
    }

    package func stop() {
        let running = phase.withLock { phase in
            defer { phase = 2 }
            return phase == 1
        }
        guard running else { return }
        stopEvent?.signal()
        if let thread, pthread_equal(thread, pthread_self()) == 0 { pthread_join(thread, nil) }
        stopEvent?.close()
        close(inotify)
    }

    /// Releases what a failed start opened; the watcher cannot be started again.
    private func abandon() {
        phase.withLock { $0 = 2 }
        stopEvent?.close()
        if inotify >= 0 { close(inotify) }
    }

    private func failure(_ call: String) -> FileWatcherError {
        FileWatcherError(reason: "\(call) failed: \(String(cString: strerror(errno)))")
    }

    /// Adds a watch on `folder` and every folder below it. New files found are appended to
    /// `reportFiles` (for folders that appear while running). A folder reached again through
    /// a symbolic link (inotify gives the same watch for the same folder) keeps its first path
    /// and is not walked again, so a link loop ends at once.
    private func addWatches(
        under folder: String, reportFiles: UnsafeMutablePointer<[String]>?, visited: inout Set<Int32>
    ) -> Bool {
        let descriptor = inotify_add_watch(inotify, folder, Self.mask)
        guard descriptor >= 0 else { return false }
        guard visited.insert(descriptor).inserted else { return true }
        folders[descriptor] = folder
        FileTreeWalk.walk(folder) { path, _ in
            switch FileSystem.kind(of: path) {
            case .directory:
                let watch = inotify_add_watch(inotify, path, Self.mask)
                guard watch >= 0, visited.insert(watch).inserted else { return .pass }
                folders[watch] = path
                return .enter
            case .file:
                reportFiles?.pointee.append(path)
                return .pass
            default:
                return .pass
            }
        }
        return true
    }

    private func run() {
        var descriptors = [
            pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopEvent?.readDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 { return }
            var changed: [String] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                collect(buffer[0..<count], into: &changed)
            }
            var seen = Set<String>()
            let unique = changed.filter { seen.insert($0).inserted }
            if !unique.isEmpty { onChange?(unique) }
        }
    }

    /// Parses `struct inotify_event` records: wd, mask, cookie, len, then `len` name bytes.
    private func collect(_ bytes: ArraySlice<UInt8>, into changed: inout [String]) {
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let watch = Int32(bitPattern: Self.word(bytes, offset))
            let mask = Self.word(bytes, offset + 4)
            let length = Int(Self.word(bytes, offset + 12))
            let nameBytes = bytes[(offset + 16)..<min(bytes.endIndex, offset + 16 + length)].prefix { $0 != 0 }
            offset += 16 + length
            guard let folder = folders[watch] else {
                // The folder of single files: only their names, written, moved or removed.
                let name = String(decoding: nameBytes, as: UTF8.self)
                if let file = fileFolders[watch]?[name], mask & UInt32(IN_ISDIR) == 0, mask & UInt32(IN_CREATE) == 0 {
                    changed.append(file)
                }
                continue
            }
            if mask & UInt32(IN_IGNORED) != 0 || mask & UInt32(IN_DELETE_SELF) != 0 {
                folders[watch] = nil
                changed.append(folder)
                continue
            }
            guard !nameBytes.isEmpty else { continue }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name.hasPrefix(".") { continue }
            let path = FileSystem.join(folder, name)
            let isFolder = mask & UInt32(IN_ISDIR) != 0
            if isFolder {
                if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
                    var found: [String] = []
                    var visited: Set<Int32> = []
                    _ = withUnsafeMutablePointer(to: &found) {
                        addWatches(under: path, reportFiles: $0, visited: &visited)
                    }
                    changed += found
                }
                changed.append(path)
            } else if mask & UInt32(IN_CREATE) == 0 {
                changed.append(path)
            }
        }
    }

    private static func word(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        // inotify records are in host byte order; Linux targets here are little-endian.
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
#endif
