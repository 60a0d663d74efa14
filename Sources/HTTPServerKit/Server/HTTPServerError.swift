import HTTPHandlerKit
import Platform

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
    /// A setting has a value the server does not know (``HTTPServerConfiguration/poller``'s
    /// environment variable, say).
    case invalidSetting(name: String, value: String, expected: String)
    /// What the configuration asks for does not exist on this system (epoll off Linux).
    case unavailable(what: String, reason: String)
    /// The TLS settings (TLSKit's `HTTPServerConfiguration.tls`) cannot be used.
    case tls(TLSSetupError)

    public var description: String {
        switch self {
        case .invalidHost(let host): "Invalid host: expected an IP address or resolvable name, found '\(host)'"
        case .invalidPort(let port): "Invalid port: expected 0...65535, found '\(port)'"
        case .bindFailed(let host, let port, let code): "Cannot listen on \(host):\(port): \(Self.message(code))"
        case .alreadyStarted: "The server was already started"
        case .system(let call, let code): "\(call) failed: \(Self.message(code))"
        case .invalidSetting(let name, let value, let expected):
            "Invalid \(name): expected \(expected), found '\(value)'"
        case .unavailable(let what, let reason): "\(what) is not available: \(reason)"
        case .tls(let error): "Cannot serve HTTPS: \(error)"
        }
    }

    private static func message(_ code: Int32) -> String {
        PlatformError.message(code)
    }

    /// The same failure, reported by the platform layer.
    init(_ error: PlatformError) {
        switch error {
        case .system(let call, let code): self = .system(call: call, errno: code)
        case .invalidHost(let host): self = .invalidHost(host)
        case .invalidPort(let port): self = .invalidPort(port)
        case .bindFailed(let host, let port, let code): self = .bindFailed(host: host, port: port, errno: code)
        case .invalidSetting(let name, let value, let expected):
            self = .invalidSetting(name: name, value: value, expected: expected)
        case .unavailable(let what, let reason): self = .unavailable(what: what, reason: reason)
        }
    }

    /// Runs a platform call, reporting its failure as the server's.
    static func platform<T>(_ body: () throws(PlatformError) -> T) throws(HTTPServerError) -> T {
        do {
            return try body()
        } catch {
            throw HTTPServerError(error)
        }
    }
}
