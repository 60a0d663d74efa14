#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which thread is which, comparable from any thread: what `pthread_self` gives.
package struct ThreadIdentity: Equatable, @unchecked Sendable {
    // Safe to share: a thread handle is an immutable value (an integer on Linux, a pointer
    // used only as a name on Darwin).
    private let handle: pthread_t?

    /// No thread: equal to no running thread.
    package static let none = ThreadIdentity(handle: nil)

    /// The calling thread.
    package static var current: ThreadIdentity { ThreadIdentity(handle: pthread_self()) }

    package static func == (left: ThreadIdentity, right: ThreadIdentity) -> Bool {
        guard let first = left.handle, let second = right.handle else {
            return left.handle == nil && right.handle == nil
        }
        return pthread_equal(first, second) != 0
    }
}

/// A POSIX thread running one closure: a plain pthread rather than Foundation's `Thread`, for
/// modules that do not import Foundation.
package final class PlatformThread: @unchecked Sendable {
    // Safe to share: `handle` is set before `start` returns and never changes.
    private let handle: pthread_t

    private init(handle: pthread_t) {
        self.handle = handle
    }

    /// Starts `body` on a new joinable thread.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(PlatformError) -> PlatformThread {
        let box = Unmanaged.passRetained(Box(body: body))
        #if canImport(Glibc)
        var created = pthread_t()
        #else
        var created: pthread_t?
        #endif
        let result = pthread_create(
            &created, nil,
            { argument in
                // The parameter is optional on Linux and not on Darwin; this reads both.
                guard let argument = argument as UnsafeMutableRawPointer? else { return nil }
                Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw .system(call: "pthread_create", errno: result)
        }
        #if canImport(Glibc)
        return PlatformThread(handle: created)
        #else
        guard let created else { throw .system(call: "pthread_create", errno: EAGAIN) }
        return PlatformThread(handle: created)
        #endif
    }

    /// Lets the thread end on its own, without a ``join()``.
    package func detach() {
        pthread_detach(handle)
    }

    /// Waits for the thread to end; does nothing when called on the thread itself.
    package func join() {
        guard !isCurrent else { return }
        pthread_join(handle, nil)
    }

    /// Whether the caller runs on this thread.
    package var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }

    private final class Box {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
}
