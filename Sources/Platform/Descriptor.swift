#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small operations on file descriptors that every back end needs, written once for each system.
/// The calls an event loop makes per read or write are `@inlinable`: they compile to the bare
/// system call in the caller's module.
package enum Descriptor {
    /// Closes `descriptor` (a type with its own `close()` method cannot call the C one by name).
    @inlinable
    package static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Makes `descriptor` non-blocking and close-on-exec: what `SOCK_NONBLOCK | SOCK_CLOEXEC` and
    /// `accept4` do in one call on Linux, for systems without them. Returns whether both took.
    @discardableResult
    package static func makeNonBlockingAndCloseOnExec(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL, 0)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        let descriptorFlags = fcntl(descriptor, F_GETFD, 0)
        guard descriptorFlags >= 0 else { return false }
        return fcntl(descriptor, F_SETFD, descriptorFlags | FD_CLOEXEC) == 0
    }

    /// Opens `/dev/null` for reading, close-on-exec: a descriptor held in reserve for the
    /// moment the process runs out of them; -1 when none is left.
    package static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Reads up to `count` bytes into `buffer`; -1 with `errno` on failure.
    @inlinable
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #elseif canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// Writes up to `count` bytes from `buffer`; -1 with `errno` on failure.
    @inlinable
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #elseif canImport(Darwin)
        Darwin.write(descriptor, buffer, count)
        #endif
    }
}
