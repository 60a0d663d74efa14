import Platform

/// Finds a `bodyFileName` under `__files/` and refuses names that lead outside it, by `..`
/// or through a symbolic link: the file's real path (every link followed) must stay inside
/// the real path of `__files/`. petmock, `petcontract verify --stub` and recording all read
/// body files through this one rule.
///
/// ```swift
/// switch BodyFileResolver(filesRoot: "Stubs/__files").read("pets.json", file: mappingFile, path: "$.response.bodyFileName") {
/// case .success(let bytes): ...
/// case .failure(let problem): print(problem)   // ...: error: $.response.bodyFileName: expected a file inside __files/, ...
/// }
/// ```
public struct BodyFileResolver: Sendable {
    /// Why a body file cannot be used.
    public enum Failure: Error, Equatable, Sendable {
        /// The name leads outside `__files/` (by `..`, or a link resolving to `resolved`).
        case outsideRoot(resolved: String?)
        /// No regular file by that name.
        case notFound
        /// There is no `__files/` folder.
        case rootMissing

        /// The problem a stub file has when its `bodyFileName` (`name`, at `path` in `file`)
        /// fails this way.
        public func problem(file: String, path: String, name: String) -> StubProblem {
            switch self {
            case .outsideRoot(let resolved):
                let target = resolved.map { " (resolves to '\($0)')" } ?? ""
                return StubProblem(
                    .error, .bodyFileOutsideRoot, file: file, path: path, expected: "a file inside __files/",
                    found: "'\(name)'\(target)")
            case .notFound:
                return StubProblem(
                    .error, .bodyFileUnreadable, file: file, path: path, expected: "a file in __files/",
                    found: "'\(name)', which does not exist")
            case .rootMissing:
                return StubProblem(
                    .error, .bodyFileUnreadable, file: file, path: path, expected: "a __files/ folder beside mappings/",
                    found: "none, for '\(name)'")
            }
        }
    }

    /// The `__files` folder.
    public let filesRoot: String
    /// The real path of `__files/`, when found once for many names; else found per name.
    let realRoot: String?

    /// Creates a resolver for a `__files` folder, which finds the folder's real path for each
    /// name it resolves.
    public init(filesRoot: String) {
        self.filesRoot = filesRoot
        realRoot = nil
    }

    /// Creates a resolver for a `__files` folder that keeps the folder's real path as it is
    /// now (a server's templated `bodyFileName`, resolved per request: two system calls a
    /// component fewer). Each name's own real path is still found per name and must stay
    /// inside the kept one; should the folder move, names are refused, never followed
    /// elsewhere. Without a folder now, the real path is found per name, as by ``init(filesRoot:)``.
    public init(keepingRealPathOf filesRoot: String) {
        self.filesRoot = filesRoot
        realRoot = FileSystem.resolve(filesRoot)
    }

    /// The bytes of the body file `name`, or the problem of the mapping naming it (at `path`
    /// in `file`): outside `__files/`, missing or unreadable.
    public func read(_ name: String, file: String, path: String) -> Result<[UInt8], StubProblem> {
        switch resolve(name) {
        case .success(let resolved):
            do throws(FileSystemError) {
                return .success(try FileSystem.read(resolved))
            } catch {
                return .failure(
                    StubProblem(
                        .error, .bodyFileUnreadable, file: file, path: path, expected: "a readable file in __files/",
                        found: "'\(name)' (\(error.reason))"))
            }
        case .failure(let failure):
            return .failure(failure.problem(file: file, path: path, name: name))
        }
    }

    /// The real path of the file, or why not.
    public func resolve(_ name: String) -> Result<String, Failure> {
        realPath(name).flatMap { FileSystem.kind(of: $0) == .file ? .success($0) : .failure(.notFound) }
    }

    /// The real path of the file, or why not, as ``resolve(_:)`` finds it, and the file's stamp
    /// taken by the one `stat` that checks it is a file (for a reader that keeps files by stamp).
    package func resolveStamped(_ name: String) -> Result<(path: String, stamp: FileStamp), Failure> {
        realPath(name).flatMap { path in
            guard let stamp = FileSystem.stamp(of: path), stamp.isRegularFile else { return .failure(.notFound) }
            return .success((path, stamp))
        }
    }

    /// The real path `name` leads to, inside `__files/` (of any kind), or why not.
    private func realPath(_ name: String) -> Result<String, Failure> {
        // First by the name alone: `..` climbing above the root is refused even when the
        // target does not exist.
        var depth = 0
        for component in name.split(separator: "/") {
            if component == ".." {
                depth -= 1
                if depth < 0 { return .failure(.outsideRoot(resolved: nil)) }
            } else if component != "." {
                depth += 1
            }
        }
        guard let root = realRoot ?? FileSystem.resolve(filesRoot) else { return .failure(.rootMissing) }
        let candidate = FileSystem.join(filesRoot, name.hasPrefix("/") ? String(name.dropFirst()) : name)
        guard let resolved = FileSystem.resolve(candidate) else { return .failure(.notFound) }
        // Then by where links really lead.
        guard resolved != root, FileSystem.isInside(resolved, root) else {
            return .failure(.outsideRoot(resolved: resolved))
        }
        return .success(resolved)
    }
}
