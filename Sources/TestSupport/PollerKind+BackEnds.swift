import Platform

extension PollerKind {
    /// Every readiness back end this system has (epoll and `poll(2)` on Linux, `poll(2)`
    /// elsewhere): what a test runs over when it runs over each.
    package static let backEnds: [PollerKind] = {
        #if os(Linux)
        [.epoll, .poll]
        #else
        [.poll]
        #endif
    }()
}
