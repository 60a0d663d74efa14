import Platform

/// Finds a `bodyFileName` under `__files/` and refuses names that lead outside it, by `..`
/// or through a symbolic link.
struct BodyFileResolver: Sendable {
    /// Why a body file cannot be used.
    enum Failure: Error, Equatable {
        case outsideRoot(resolved: String?)
        case notFound
        case rootMissing

        func problem(file: String, path: String, name: String) -> StubProblem {
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

    let filesRoot: String

    /// The real path of the file, or why not.
    func resolve(_ name: String) -> Result<String, Failure> {
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
        guard let root = FileSystem.resolve(filesRoot) else { return .failure(.rootMissing) }
        let candidate = FileSystem.join(filesRoot, name.hasPrefix("/") ? String(name.dropFirst()) : name)
        guard let resolved = FileSystem.resolve(candidate) else { return .failure(.notFound) }
        // Then by where links really lead.
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return .failure(.outsideRoot(resolved: resolved))
        }
        guard FileSystem.kind(of: resolved) == .file else { return .failure(.notFound) }
        return .success(resolved)
    }
}
