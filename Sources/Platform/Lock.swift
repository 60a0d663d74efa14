#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable: the one lock petkit uses for state that crosses threads.
///
/// It is a pthread mutex, which ThreadSanitizer understands: `Synchronization.Mutex` on Linux
/// hands a contended lock over inside the kernel (`FUTEX_LOCK_PI`), where TSan sees no acquire,
/// so every contended access under it looks like a race. It also has the condition variable
/// `Synchronization.Mutex` lacks (`start()`/`waitUntilStopped()` block on one).
package final class Lock: @unchecked Sendable {
    // Safe to share: the pthread objects live at a stable heap address for the lock's
    // lifetime and are only used through pthread calls, which synchronise themselves.
    // `@usableFromInline` so that `withLock`, inlined into its callers' modules, is
    // specialised there rather than called as an unspecialised generic.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Creates an unlocked lock.
    package init() {
        // Both in one allocation (a lock is made per deferred reply, so per request).
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: Self.conditionOffset + MemoryLayout<pthread_cond_t>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment))
        mutex = block.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = (block + Self.conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Where the condition variable sits in the block after the mutex.
    private static let conditionOffset: Int = {
        let alignment = MemoryLayout<pthread_cond_t>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
    }()

    /// Runs `body` holding the lock.
    @inlinable
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` holding the lock when it is free now; nil, without waiting, when it is
    /// held (by this thread too).
    package func withLockIfAvailable<T>(_ body: () -> T) -> T? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Waits, holding the lock on entry and return, until `predicate` holds; others must
    /// call ``broadcast()`` after changing what it reads.
    package func wait(until predicate: () -> Bool) {
        pthread_mutex_lock(mutex)
        while !predicate() { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Wakes every thread in ``wait(until:)`` so it checks its predicate again.
    package func broadcast() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// A value guarded by a ``Lock``, used as `Synchronization.Mutex` is:
/// `state.withLock { $0.count += 1 }`.
package final class Locked<Value>: @unchecked Sendable {
    // Safe to share: the value is only read or written inside `lock.withLock`, and a value put in
    // or taken out crosses threads only through it (as `Mutex`'s `sending` values do).
    //
    // The value lives in its own allocation, not in a stored property of this class. In a
    // generic class the runtime lays the fields out, and an empty `Value` (`Locked(())`, a lock
    // guarding no data) gets offset 0: the address of the object's header. `withLock` reads that
    // header, without the lock, to find `lock`'s offset, and the `&value` access inside the lock
    // is a modify of the same address, which ThreadSanitizer reports as a Swift access race. A
    // separate allocation (at least one byte, as `allocate` rounds an empty type's stride up to
    // one) has an address nothing else uses and that is only touched under the lock.
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    /// The lock, for ``Lock/broadcast()`` after a change others wait for.
    package let lock = Lock()

    /// Guards `value`.
    package init(_ value: Value) {
        storage = UnsafeMutablePointer.allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` on the value, holding the lock (inlinable: specialised in the caller).
    @inlinable
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&storage.pointee) }
    }

    /// Runs `body` on the value when the lock is free now; nil, without waiting, when it is held.
    package func withLockIfAvailable<T>(_ body: (inout Value) -> T) -> T? {
        lock.withLockIfAvailable { body(&storage.pointee) }
    }

    /// Blocks until `predicate` holds for the value; changers must call `lock.broadcast()`.
    package func wait(until predicate: (Value) -> Bool) {
        lock.wait { predicate(storage.pointee) }
    }
}
