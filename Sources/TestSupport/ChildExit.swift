#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended: its exit status, or the signal that killed it.
package enum ChildExit: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal it did not catch ended it.
    case signalled(Int32)

    /// The exit status, or the signal's number, as Foundation's `Process.terminationStatus` gives it.
    package var status: Int32 {
        switch self {
        case .exited(let status): status
        case .signalled(let signal): signal
        }
    }

    /// Decodes a `waitpid` status (no stopped children: the waiter does not ask for them).
    init(waitStatus: Int32) {
        let signal = waitStatus & 0x7f
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signalled(signal)
    }
}

/// Why a child process could not be started.
package struct ChildProcessError: Error, CustomStringConvertible {
    /// The program that was to run.
    package let executable: String
    /// The call that failed.
    package let call: String
    /// Its error number.
    package let errno: Int32

    package var description: String {
        "cannot start '\(executable)': \(call) failed with errno \(errno) (\(String(cString: strerror(errno))))"
    }
}
