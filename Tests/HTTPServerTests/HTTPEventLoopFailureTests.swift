import Dispatch
import HTTPCore
import Platform
import Testing

@testable import HTTPServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an event loop does when its own machinery breaks under it.
@Suite struct HTTPEventLoopFailureTests {
    #if os(Linux)
    @Test func aLoopWhosePollerBrokeStopsInsteadOfSpinning() throws {
        var configuration = HTTPServerConfiguration(eventLoopCount: 1)
        configuration.poller = .epoll
        let server = HTTPServer(configuration: configuration, handler: echoPath)
        try server.start()
        let loop = try #require(server.eventLoops.first)
        let poller = try #require(loop.poller as? EpollPoller)
        // What a stray close() elsewhere in the process did to a loop in the test suite (a
        // test client closing its socket twice): the epoll descriptor stops being an epoll.
        // dup2 puts /dev/null there instead of closing it, so no number is freed for reuse.
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        #expect(dup2(devNull, poller.epoll) == poller.epoll)
        close(devNull)
        loop.execute {}  // wake it: its next epoll_wait fails
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop()
            stopped.signal()
        }
        // A loop that spins on EBADF/EINVAL at 100% CPU never lets stop() return.
        #expect(stopped.wait(timeout: .now() + 10) == .success)
    }
    #endif
}
