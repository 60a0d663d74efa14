import Platform

/// Starts `body` on a new detached POSIX thread; false when the system refused.
///
/// A plain pthread rather than Foundation's `Thread`, so the HTTP client does not pull all of
/// Foundation (and its ~7 MB of resident ICU) into every client process.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    guard let thread = try? PlatformThread.start(body) else { return false }
    thread.detach()
    return true
}
