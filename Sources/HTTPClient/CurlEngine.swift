import CCurl
import HTTPCore
import Platform

/// libcurl, opened and set up once for the process before the first handle is made
/// (`ccurl_load`: dlopen, then `curl_global_init`). Nothing links libcurl, so a process that
/// makes no libcurl transfer never maps it, nor the TLS, Kerberos and LDAP libraries it loads.
package enum CurlGlobal {
    /// Whether libcurl is ready; the first use loads it.
    static var initialized: Bool { ccurl_load() == 1 }

    /// Why no libcurl client could be made: the library names tried and the loader's message
    /// when libcurl did not load, or else that libcurl would not start one.
    package static var failure: String {
        let reason = String(cString: ccurl_load_error())
        return reason.isEmpty ? "libcurl could not start a client" : reason
    }
}

/// Wraps the multi handle pointer so the engine and its I/O thread can both hold it.
struct MultiHandle: @unchecked Sendable {
    // Safe because only the I/O thread calls libcurl on it, except `curl_multi_wakeup`, which
    // libcurl documents as callable from any thread, and which the engine only calls under its
    // inbox lock before the I/O thread has seen `stopped` (so never after cleanup).
    let pointer: UnsafeMutableRawPointer
}

/// Runs every transfer of one ``CurlTransport`` on a single I/O thread driving a libcurl
/// multi handle: tasks hand transfers in through a locked inbox and wake the thread; the
/// thread adds, cancels and completes them and resumes the waiting tasks.
final class CurlEngine: Sendable {
    struct Inbox: Sendable {
        var pending: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var stopped = false
    }

    private let multi: MultiHandle
    private let inbox: Locked<Inbox>

    /// Creates the multi handle and starts the I/O thread; nil when libcurl cannot start.
    init?(configuration: CurlTransportConfiguration) {
        guard CurlGlobal.initialized, let pointer = ccurl_multi_init() else { return nil }
        multi = MultiHandle(pointer: pointer)
        inbox = Locked(Inbox())
        _ = ccurl_multi_setopt_long(pointer, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ccurl_multi_setopt_long(pointer, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(pointer, CURLMOPT_MAXCONNECTS, configuration.maxCachedConnections)
        let loop = CurlLoop(multi: multi, engine: self)
        guard startDetachedThread({ loop.run() }) else {
            ccurl_multi_cleanup(pointer)
            return nil
        }
    }

    /// Queues a transfer; `completion` is called exactly once with its outcome.
    func submit(_ transfer: CurlTransfer, completion: @escaping CurlTransfer.Completion) {
        let cancelledEarly = transfer.state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.completion = completion
            return false
        }
        if cancelledEarly {
            completion(.failure(.cancelledError(url: transfer.request.url)))
            return
        }
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.stopped else { return false }
            inbox.pending.append(transfer)
            ccurl_multi_wakeup(multi.pointer)
            return true
        }
        if !accepted {
            transfer.finish(.failure(.shutDownError(url: transfer.request.url)))
        }
    }

    /// Asks the I/O thread to abandon a transfer (the Swift task was cancelled).
    func cancel(_ transfer: CurlTransfer) {
        transfer.state.withLock { $0.cancelled = true }
        inbox.withLock { inbox in
            guard !inbox.stopped else { return }
            inbox.cancelled.append(transfer)
            ccurl_multi_wakeup(multi.pointer)
        }
    }

    /// Empties the inbox for the I/O thread: transfers to start, transfers to cancel, and
    /// whether to stop.
    func takeInbox() -> (pending: [CurlTransfer], cancelled: [CurlTransfer], stopped: Bool) {
        inbox.withLock { inbox in
            defer {
                inbox.pending = []
                inbox.cancelled = []
            }
            return (inbox.pending, inbox.cancelled, inbox.stopped)
        }
    }

    /// Stops the I/O thread; transfers still running fail as cancelled.
    func shutDown() {
        inbox.withLock { inbox in
            guard !inbox.stopped else { return }
            inbox.stopped = true
            ccurl_multi_wakeup(multi.pointer)
        }
    }
}

extension HTTPClientError {
    static func cancelledError(url: String) -> HTTPClientError {
        HTTPClientError(kind: .cancelled, url: url, message: "the request was cancelled")
    }

    static func shutDownError(url: String) -> HTTPClientError {
        HTTPClientError(kind: .cancelled, url: url, message: "the transport was shut down")
    }
}

extension CurlTransfer {
    /// Hands the outcome to whoever waits, once; later calls do nothing.
    func finish(_ outcome: Result<HTTPClientResponse, HTTPClientError>) {
        let completion = state.withLock { state -> Completion? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.completion = nil }
            return state.completion
        }
        completion?(outcome)
    }

    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }
}
