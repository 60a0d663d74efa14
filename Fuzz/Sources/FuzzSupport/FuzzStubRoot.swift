import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary stub root for a fuzz target, made once per process and removed when it exits:
/// `mappings/`, `__files/` holding the given files, and beside `__files/` a file that no body
/// file may ever reach, with a symbolic link to it inside (`__files/outside`).
///
/// ```swift
/// let root = FuzzStubRoot.make("folder", files: ["__files/pets.json": "[1, 2]"])
/// ```
public enum FuzzStubRoot {
    /// What the file outside `__files/` holds: a body that contains it escaped the rule.
    public static let secret = "SECRET-OUTSIDE-FILES"

    /// Makes `/tmp/petkit-fuzz-NAME-XXXXXX` as described above; `files` are paths inside the
    /// root (their folders are made) and their texts.
    public static func make(_ name: String, files: [String: String]) -> String {
        var template = Array("/tmp/petkit-fuzz-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { preconditionFailure("mkdtemp failed: \(errno)") }
        let path = String(cString: made)
        let manager = FileManager.default
        for folder in ["mappings", "__files"] + files.keys.map({ ($0 as NSString).deletingLastPathComponent }) {
            try? manager.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
        }
        for (file, text) in files { write(text, to: path + "/" + file) }
        write(secret, to: path + "/secret.txt")
        symlink(path + "/secret.txt", path + "/__files/outside")
        madeRoots.append(path)
        if madeRoots.count == 1 {
            atexit { for root in FuzzStubRoot.madeRoots { try? FileManager.default.removeItem(atPath: root) } }
        }
        return path
    }

    /// Writes `text` to `path`, replacing what was there.
    public static func write(_ text: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0, "cannot write \(path)")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { raw in
            #if canImport(Glibc)
            Glibc.write(descriptor, raw.baseAddress, raw.count)
            #else
            Darwin.write(descriptor, raw.baseAddress, raw.count)
            #endif
        }
        close(descriptor)
    }

    /// The roots made, removed at exit (a fuzz target runs its checks on one thread).
    nonisolated(unsafe) static var madeRoots: [String] = []
}
