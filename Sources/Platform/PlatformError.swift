#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the platform layer could not do what was asked.
package enum PlatformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// The host is neither an IP address nor a name that resolves to one.
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Binding the address failed, for example because the port is in use.
    case bindFailed(host: String, port: Int, errno: Int32)
    /// A setting (an environment variable or option) has a value this layer does not know.
    case invalidSetting(name: String, value: String, expected: String)
    /// What was asked for does not exist on this operating system (epoll or inotify off Linux).
    case unavailable(what: String, reason: String)

    package var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(Self.message(code))"
        case .invalidHost(let host): "Invalid host: expected an IP address or resolvable name, found '\(host)'"
        case .invalidPort(let port): "Invalid port: expected 0...65535, found '\(port)'"
        case .bindFailed(let host, let port, let code): "Cannot listen on \(host):\(port): \(Self.message(code))"
        case .invalidSetting(let name, let value, let expected):
            "Invalid \(name): expected \(expected), found '\(value)'"
        case .unavailable(let what, let reason): "\(what) is not available: \(reason)"
        }
    }

    /// The system's text for an errno value.
    package static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// The failure of `call` with the current `errno`.
    static func lastError(_ call: String) -> PlatformError {
        .system(call: call, errno: errno)
    }
}
