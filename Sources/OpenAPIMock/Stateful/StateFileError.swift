/// Why `--state-file` could not be used: each names the file.
public enum StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or made (a missing folder, no permission).
    case unopenable(path: String, reason: String)
    /// The file is not a petmock state file, or is damaged.
    case corrupt(path: String, reason: String)
    /// The file holds the collections of another document.
    case otherDocument(path: String, expected: [String], found: [String])
    /// The file holds more than the store's limits allow.
    case overLimits(path: String, reason: String)

    public var description: String {
        switch self {
        case .unopenable(let path, let reason): "state file '\(path)': cannot open it: \(reason)"
        case .corrupt(let path, let reason): "state file '\(path)': not a valid petmock state file: \(reason)"
        case .otherDocument(let path, let expected, let found):
            "state file '\(path)': it holds another document's collections: expected "
                + "\(Self.list(expected)), found \(Self.list(found)); give another file, or delete this one"
        case .overLimits(let path, let reason): "state file '\(path)': it holds more than the store may: \(reason)"
        }
    }

    private static func list(_ paths: [String]) -> String {
        paths.isEmpty ? "none" : paths.map { "'\($0)'" }.joined(separator: ", ")
    }
}
