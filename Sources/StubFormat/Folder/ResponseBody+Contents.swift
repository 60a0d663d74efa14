import JSONKit

extension ResponseBody {
    /// The bytes this body sends, or the problem of the mapping (at `path` in `file`; `path`
    /// names its `bodyFileName`) when a body file cannot be used. Body files are read from
    /// `filesRoot` under ``BodyFileResolver``'s rule; with no `filesRoot` (mappings given
    /// without a stub folder) a body file is a problem.
    public func contents(filesRoot: String?, file: String, path: String) -> Result<[UInt8], StubProblem> {
        switch self {
        case .none: return .success([])
        case .text(let text): return .success(Array(text.utf8))
        case .json(let value): return .success(value.serializedBytes())
        case .bytes(let bytes): return .success(bytes)
        case .file(let name):
            guard let filesRoot else {
                return .failure(
                    StubProblem(
                        .error, .bodyFileUnreadable, file: file, path: path, expected: "a stub folder with __files/",
                        found: "mappings given without one"))
            }
            return BodyFileResolver(filesRoot: filesRoot).read(name, file: file, path: path)
        }
    }
}
