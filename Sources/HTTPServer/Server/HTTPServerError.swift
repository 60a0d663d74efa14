#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a server could not start or install its signal handling.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host is neither an IP address nor a name that resolves to one.
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Binding the address failed, for example because the port is in use.
    case bindFailed(host: String, port: Int, errno: Int32)
    /// `start()` was called on a server that was already started.
    case alreadyStarted
    /// A system call failed.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidHost(let host): "Invalid host: expected an IP address or resolvable name, found '\(host)'"
        case .invalidPort(let port): "Invalid port: expected 0...65535, found '\(port)'"
        case .bindFailed(let host, let port, let code): "Cannot listen on \(host):\(port): \(Self.message(code))"
        case .alreadyStarted: "The server was already started"
        case .system(let call, let code): "\(call) failed: \(Self.message(code))"
        }
    }

    private static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
