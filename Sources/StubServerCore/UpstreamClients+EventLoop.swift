import HTTPServerKit
import MockEngine

extension UpstreamClients {
    /// Runs a webhook's delayed work on the timers of the event loop its request came on, so
    /// that stopping the server drops it (and says so); any other loop is not this server's.
    package static let eventLoopTimers: ScheduleOnLoop = { requestLoop, delay, work, dropped in
        guard let loop = requestLoop as? HTTPEventLoop else { return false }
        loop.schedule(after: delay, work, ifDropped: dropped)
        return true
    }
}
