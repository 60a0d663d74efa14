#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `body` on a new detached POSIX thread; false when the system refused.
///
/// A plain pthread rather than Foundation's `Thread`, so the HTTP client does not pull all of
/// Foundation (and its ~7 MB of resident ICU) into every client process.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Start {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
    let start = Unmanaged.passRetained(Start(body: body))
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let result = pthread_create(
        &thread, &attributes,
        { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            start.body()
            return nil
        }, start.toOpaque())
    if result != 0 {
        start.release()
        return false
    }
    return true
}
