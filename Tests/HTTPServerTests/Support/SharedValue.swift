#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared between a handler (on an event loop) and a test.
final class SharedValue<Value: Sendable>: @unchecked Sendable {
    // Safe to share: `value` is only touched with the mutex held.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func get() -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return value
    }

    func set(_ newValue: Value) {
        pthread_mutex_lock(mutex)
        value = newValue
        pthread_mutex_unlock(mutex)
    }

    func update(_ body: (inout Value) -> Void) {
        pthread_mutex_lock(mutex)
        body(&value)
        pthread_mutex_unlock(mutex)
    }
}
