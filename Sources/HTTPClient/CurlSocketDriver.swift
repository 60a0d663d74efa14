import CCurl
import HTTPCore
import Platform

/// libcurl's multi-socket API driven by someone else's event loop: transfers are started,
/// progressed and completed on the loop's thread, with no thread of their own and no hop.
///
/// Not thread-safe: every call, and every completion, happens on the host's thread. The host
/// reports readiness and the timeout; the driver owns the multi handle, its connection cache
/// and a pool of easy handles. Bounds come from the configuration: each transfer's total time
/// (`CURLOPT_TIMEOUT_MS`), connect time, and body size (a larger body fails as
/// ``HTTPClientError/Kind/tooLarge`` without being kept).
///
/// ```swift
/// let driver = CurlSocketDriver(configuration: .init(totalTimeout: .seconds(5)), host: loopGlue)
/// driver?.send(HTTPClientRequest(url: "http://127.0.0.1:8081/api/pets")) { outcome in ... }
/// ```
package final class CurlSocketDriver {
    /// The settings transfers are made with.
    package let configuration: CurlTransportConfiguration
    private let multi: UnsafeMutableRawPointer
    private unowned let host: any LoopSocketHost
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Easy handles of finished transfers, reset for the next ones.
    private var idle: [UnsafeMutableRawPointer] = []
    private var stopped = false
    /// The connection sockets libcurl made (`CURLOPT_SOCKOPTFUNCTION`) and not yet closed
    /// (`CURLOPT_CLOSESOCKETFUNCTION`, which closes them here): between transfers they are
    /// parked, not unwatched, since the driver hears of their closing.
    private var connectionSockets: Set<Int32> = []
    private static let maxIdleHandles = 64

    /// Creates the multi handle; nil when libcurl cannot start. `host` must outlive the driver
    /// (it owns it).
    package init?(configuration: CurlTransportConfiguration, host: any LoopSocketHost) {
        guard CurlGlobal.initialized, let pointer = ccurl_multi_init() else { return nil }
        self.configuration = configuration
        multi = pointer
        self.host = host
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_multi_setopt_long(pointer, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(pointer, CURLMOPT_MAXCONNECTS, configuration.maxCachedConnections)
        _ = ccurl_multi_setopt_pointer(pointer, CURLMOPT_SOCKETDATA, me)
        _ = ccurl_multi_setopt_pointer(pointer, CURLMOPT_TIMERDATA, me)
        _ = ccurl_multi_setopt_socket_function(pointer) { _, socket, what, user, _ in
            guard let user else { return 0 }
            let driver = Unmanaged<CurlSocketDriver>.fromOpaque(user).takeUnretainedValue()
            // While shutting down (maybe from the host's deinit) the host is not called.
            if !driver.stopped { driver.socketChanged(socket, what: what) }
            return 0
        }
        _ = ccurl_multi_setopt_timer_function(pointer) { _, milliseconds, user in
            guard let user else { return 0 }
            let driver = Unmanaged<CurlSocketDriver>.fromOpaque(user).takeUnretainedValue()
            if !driver.stopped { driver.host.scheduleTimeout(milliseconds: milliseconds < 0 ? nil : milliseconds) }
            return 0
        }
    }

    deinit {
        shutDown()
    }

    /// How many transfers are under way.
    package var transfersInFlight: Int { running.count }

    /// Starts a transfer; `completion` is called exactly once, on the host's thread: from a
    /// later ``socketReady(_:readable:writable:failed:)`` or ``timeoutReached()``, or before
    /// this call returns when the transfer cannot start (or the driver was shut down).
    package func send(
        _ request: HTTPClientRequest,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        let transfer = CurlTransfer(request: request, options: configuration)
        transfer.state.withLock { $0.completion = completion }
        let logger = configuration.logger
        logger?.log(request: request, compressed: configuration.decompress)
        guard !stopped else {
            transfer.finish(.failure(.shutDownError(url: request.url)))
            return
        }
        do {
            let easy = try transfer.makeEasyHandle(reusing: idle.popLast())
            trackSockets(of: easy)
            let code = ccurl_multi_add_handle(multi, easy)
            guard code == CURLM_OK else {
                let message = String(cString: ccurl_multi_strerror(code))
                transfer.cleanUp()
                transfer.finish(.failure(HTTPClientError(kind: .other, url: request.url, message: message)))
                return
            }
            running[easy] = transfer
        } catch {
            transfer.cleanUp()
            transfer.finish(.failure(error))
        }
    }

    /// The host reports a watched descriptor ready.
    package func socketReady(_ descriptor: Int32, readable: Bool, writable: Bool, failed: Bool) {
        guard !stopped else { return }
        let mask = (readable ? Self.selectIn : 0) | (writable ? Self.selectOut : 0) | (failed ? Self.selectError : 0)
        var stillRunning: Int32 = 0
        _ = ccurl_multi_socket_action(multi, descriptor, mask, &stillRunning)
        collectFinished()
    }

    /// The host's timer for libcurl fired.
    package func timeoutReached() {
        guard !stopped else { return }
        var stillRunning: Int32 = 0
        _ = ccurl_multi_socket_action(multi, Self.socketTimeout, 0, &stillRunning)
        collectFinished()
    }

    /// Fails every transfer under way as cancelled and releases libcurl's handles; later
    /// sends fail at once. Called by deinit, or by the host when its loop ends.
    package func shutDown() {
        guard !stopped else { return }
        stopped = true
        let abandoned = running.values
        running = [:]
        for transfer in abandoned {
            if let easy = transfer.easy { ccurl_multi_remove_handle(multi, easy) }
            transfer.cleanUp()
            transfer.finish(.failure(.shutDownError(url: transfer.request.url)))
        }
        for easy in idle { ccurl_easy_cleanup(easy) }
        idle = []
        ccurl_multi_cleanup(multi)
    }

    private func socketChanged(_ descriptor: Int32, what: Int32) {
        switch what {
        case Self.pollRemove where connectionSockets.contains(descriptor): host.park(descriptor)
        case Self.pollRemove: host.unwatch(descriptor)
        default: host.watch(descriptor, read: what & Self.pollIn != 0, write: what & Self.pollOut != 0)
        }
    }

    /// Has libcurl tell the driver of each connection socket it makes and closes.
    private func trackSockets(of easy: UnsafeMutableRawPointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_SOCKOPTDATA, me)
        _ = ccurl_easy_setopt_sockopt_function(easy) { user, socket, purpose in
            if let user, purpose == CURLSOCKTYPE_IPCXN {
                Unmanaged<CurlSocketDriver>.fromOpaque(user).takeUnretainedValue().connectionSockets.insert(socket)
            }
            return 0  // CURL_SOCKOPT_OK
        }
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_CLOSESOCKETDATA, me)
        _ = ccurl_easy_setopt_closesocket_function(easy) { user, socket in
            if let user {
                let driver = Unmanaged<CurlSocketDriver>.fromOpaque(user).takeUnretainedValue()
                driver.connectionSockets.remove(socket)
                if !driver.stopped { driver.host.unwatch(socket) }
            }
            Descriptor.close(socket)
            return 0
        }
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = ccurl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = running[easy]
            else { continue }
            let outcome = transfer.outcome(message.pointee.data.result)
            ccurl_multi_remove_handle(multi, easy)
            running[easy] = nil
            if let released = transfer.releaseEasyHandle() {
                if idle.count < Self.maxIdleHandles {
                    ccurl_easy_reset(released)
                    idle.append(released)
                } else {
                    ccurl_easy_cleanup(released)
                }
            }
            log(outcome, for: transfer.request)
            // The completion may start another transfer (a pipelined request): allowed here,
            // outside libcurl's callbacks.
            transfer.finish(outcome)
        }
    }

    private func log(_ outcome: Result<HTTPClientResponse, HTTPClientError>, for request: HTTPClientRequest) {
        guard let logger = configuration.logger else { return }
        switch outcome {
        case .success(let response): logger.log(response: response, for: request)
        case .failure(let error): logger.log(error: error, for: request)
        }
    }

    // libcurl's macros (curl.h / multi.h), as the values its ABI fixes.
    private static let pollIn: Int32 = 1
    private static let pollOut: Int32 = 2
    private static let pollRemove: Int32 = 4
    private static let selectIn: Int32 = 1
    private static let selectOut: Int32 = 2
    private static let selectError: Int32 = 4
    private static let socketTimeout: Int32 = -1
}
