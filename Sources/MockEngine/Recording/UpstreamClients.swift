import HTTPCore
import HTTPHandlerKit

/// How the engine reaches a live API (proxy stubs, `--proxy-unmatched`, recording): the
/// front end that serves the engine supplies it. The socket server gives libcurl and its own
/// loop clients; in-process URLSession stubs give a URLSession.
package struct UpstreamClients: Sendable {
    /// What ``sendOnLoop`` did with a request.
    package enum LoopSend: Sendable {
        /// The request is not on a loop of this front end's (or not on its thread): the
        /// transport sends it instead.
        case notOnLoop
        /// The loop has as many transfers under way as it may.
        case full
        /// The transfer started; its completion runs on the loop's thread.
        case started
    }

    /// The transport for requests sent from any thread, made once, on first use.
    package var makeTransport: @Sendable (UpstreamSettings) -> any HTTPTransport
    /// Sends a request on the event loop it arrived on, with no thread hop: calls `willStart`
    /// (with whether the front end's own client takes it) just before the transfer starts.
    /// Nil when the front end has no loops.
    package var sendOnLoop:
        (
            @Sendable (
                HTTPClientRequest, any HTTPRequestLoop,
                @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void, (Bool) -> Void
            ) -> LoopSend
        )?

    /// Runs work on a request's event loop after a delay, on the loop's own timers (a
    /// webhook's `delay`), calling the last closure instead when the loop stops before the
    /// work runs; returns false when the loop is not one of this front end's. Nil when the
    /// front end has no loops (a dispatch timer then).
    package var scheduleOnLoop: ScheduleOnLoop?

    /// What ``scheduleOnLoop`` is: the loop, the delay, the work, and what to call if it is dropped.
    package typealias ScheduleOnLoop =
        @Sendable (
            any HTTPRequestLoop, Duration, @escaping @Sendable () -> Void, @escaping @Sendable () -> Void
        ) -> Bool

    /// Creates the clients.
    package init(
        makeTransport: @escaping @Sendable (UpstreamSettings) -> any HTTPTransport,
        sendOnLoop: (
            @Sendable (
                HTTPClientRequest, any HTTPRequestLoop,
                @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void, (Bool) -> Void
            ) -> LoopSend
        )? = nil,
        scheduleOnLoop: ScheduleOnLoop? = nil
    ) {
        self.makeTransport = makeTransport
        self.sendOnLoop = sendOnLoop
        self.scheduleOnLoop = scheduleOnLoop
    }

    /// Clients that send every request through `transport` (a test's fake, a URLSession).
    package static func transport(_ transport: any HTTPTransport) -> UpstreamClients {
        UpstreamClients(makeTransport: { _ in transport })
    }
}
