/// Why TLS could not be set up: a certificate or key file, the local certificate authority's
/// folder, or OpenSSL itself.
public enum TLSSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A certificate or key file that cannot be used as it is.
    case unusableFile(path: String, reason: String)
    /// The certificate authority's folder holds something other than what petkit writes there.
    case corruptAuthority(directory: String, file: String, reason: String)
    /// A file or folder could not be written.
    case cannotWrite(path: String, reason: String)
    /// OpenSSL failed where it should not (out of memory, say).
    case openSSL(String)

    public var description: String {
        switch self {
        case .unusableFile(let path, let reason):
            "'\(path)': \(reason)"
        case .corruptAuthority(let directory, let file, let reason):
            "certificate authority '\(directory)': '\(file)': \(reason); remove the folder to make a new authority"
        case .cannotWrite(let path, let reason):
            "cannot write '\(path)': \(reason)"
        case .openSSL(let reason):
            "OpenSSL failed: \(reason)"
        }
    }
}
