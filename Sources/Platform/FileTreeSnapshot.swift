#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a polling watcher remembers of a folder tree: for each entry (names starting with
/// `.` skipped, links followed) its identity, size and times, so two scans tell what changed.
struct FileTreeSnapshot {
    /// What identifies one version of an entry.
    typealias Stamp = FileStamp

    private(set) var entries: [String: Stamp] = [:]
    /// Whether the scan stopped at its bound (``maxEntries`` or ``maxDepth``) before the end.
    private(set) var truncated = false

    /// The most entries one scan looks at, so a huge tree cannot make each scan unbounded.
    static let maxEntries = 20_000
    /// The deepest folder level a scan enters.
    static let maxDepth = 32

    private let entryLimit: Int
    private let depthLimit: Int

    /// Scans the trees under `directories` and the single `files` (those that exist), within
    /// the bounds given.
    init(directories: [String], files: [String] = [], maxEntries: Int = maxEntries, maxDepth: Int = maxDepth) {
        entryLimit = maxEntries
        depthLimit = maxDepth
        for file in files.prefix(maxEntries) {
            if let stamp = Self.stamp(file), !stamp.isDirectory { entries[file] = stamp }
        }
        var visited: Set<[UInt64]> = []
        for directory in directories {
            guard let stamp = Self.stamp(directory), stamp.isDirectory else { continue }
            visited.insert([stamp.device, stamp.inode])
            scan(directory, visited: &visited)
        }
    }

    private mutating func scan(_ folder: String, visited: inout Set<[UInt64]>) {
        FileTreeWalk.walk(folder) { path, level in
            guard entries.count < entryLimit else {
                truncated = true
                return .stop
            }
            guard let stamp = Self.stamp(path) else { return .pass }
            entries[path] = stamp
            guard stamp.isDirectory else { return .pass }
            // A folder reached again through a link keeps its first path, so a loop ends at once.
            guard level + 1 < depthLimit else {
                truncated = true
                return .pass
            }
            return visited.insert([stamp.device, stamp.inode]).inserted ? .enter : .pass
        }
    }

    /// The stamp of `path`, following links; nil when it does not exist.
    static func stamp(_ path: String) -> Stamp? { FileSystem.stamp(of: path) }

    /// The paths that differ from `earlier`, sorted: entries added, removed or changed
    /// (a folder only when it appears or goes: its times change with every file in it).
    func changes(since earlier: FileTreeSnapshot) -> [String] {
        var changed: [String] = []
        for (path, stamp) in entries {
            guard let before = earlier.entries[path] else {
                changed.append(path)
                continue
            }
            if stamp.isDirectory != before.isDirectory || (!stamp.isDirectory && stamp != before) {
                changed.append(path)
            }
        }
        for path in earlier.entries.keys where entries[path] == nil {
            changed.append(path)
        }
        return changed.sorted()
    }

    /// The changes since `reported` that `previous` (the scan before this one) already showed
    /// the same way: a file still being written (truncated, half full) differs between two
    /// scans, and is reported only once it holds still.
    func settledChanges(since reported: FileTreeSnapshot, previous: FileTreeSnapshot) -> [String] {
        changes(since: reported).filter { entries[$0] == previous.entries[$0] }
    }

    /// Takes the entries of `paths` from `other` (after reporting them).
    mutating func adopt(_ paths: [String], from other: FileTreeSnapshot) {
        for path in paths { entries[path] = other.entries[path] }
    }
}
