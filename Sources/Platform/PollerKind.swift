#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which ``Poller`` back end to use, chosen at run time.
public enum PollerKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `PETKIT_POLLER` when it is set, else epoll on Linux and `poll(2)` elsewhere.
    case automatic
    /// Linux's epoll, edge-triggered (Linux only).
    case epoll
    /// Portable `poll(2)`, level-triggered: O(connections) per wait, for systems without epoll
    /// and for running the suite over a second back end.
    case poll

    /// The environment variable ``automatic`` reads: `epoll` or `poll`.
    package static let environmentVariable = "PETKIT_POLLER"

    public var description: String { rawValue }

    /// The back end this kind stands for: itself, or for ``automatic`` the environment's
    /// choice or the system's best. An unknown value in the environment is an error naming it.
    package func resolved(
        environment: (String) -> String? = PlatformEnvironment.value
    ) throws(PlatformError) -> PollerKind {
        guard self == .automatic else { return self }
        if let value = environment(Self.environmentVariable), !value.isEmpty {
            guard let kind = PollerKind(rawValue: value), kind != .automatic else {
                throw .invalidSetting(name: Self.environmentVariable, value: value, expected: "'epoll' or 'poll'")
            }
            return kind
        }
        #if os(Linux)
        return .epoll
        #else
        return .poll
        #endif
    }

    /// Opens a poller of this kind (resolving ``automatic`` first).
    package func makePoller(
        environment: (String) -> String? = PlatformEnvironment.value
    ) throws(PlatformError) -> any Poller {
        switch try resolved(environment: environment) {
        case .epoll:
            #if os(Linux)
            return try EpollPoller()
            #else
            throw .unavailable(what: "the epoll poller", reason: "epoll exists only on Linux; use 'poll'")
            #endif
        case .poll, .automatic:
            return try PollPoller()
        }
    }
}

/// Reading the process environment without Foundation.
package enum PlatformEnvironment {
    /// The value of the environment variable `name`, if set.
    @Sendable package static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
