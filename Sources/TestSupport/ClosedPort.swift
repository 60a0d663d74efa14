#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port that refuses every connection for as long as this object lives: a socket
/// bound to it that never listens. A port merely freed after use (a server started, then
/// stopped) can be taken by any server another test starts meanwhile, and the "refused"
/// connection then reaches it instead.
///
/// ```swift
/// let down = try ClosedPort()
/// defer { _ = down }   // keep it bound until the end of the test
/// let url = "http://127.0.0.1:\(down.port)/api"
/// ```
package final class ClosedPort: Sendable {
    /// The port number.
    package let port: Int
    private let descriptor: Int32

    /// Binds a socket to a free loopback port, without listening on it.
    package init() throws(ClosedPortError) {
        // `self.descriptor` is set only on success: deinit, which closes it, also runs when an
        // init throws after every stored property is set.
        do {
            (descriptor, port) = try LoopbackSocket.bind(listening: nil)
        } catch {
            guard case .system(let call, let code) = error else { throw ClosedPortError(call: "bind", code: 0) }
            throw ClosedPortError(call: call, code: code)
        }
    }

    deinit {
        close(descriptor)
    }
}

/// Why a ``ClosedPort`` could not be made.
package struct ClosedPortError: Error, CustomStringConvertible {
    /// The failing call.
    package let call: String
    /// Its `errno`.
    package let code: Int32

    package var description: String { "\(call) failed: errno \(code)" }
}
