import CCurl
import HTTPCore

/// The I/O thread's side of ``CurlEngine``: owns the running transfers and is the only code
/// that calls libcurl on the multi handle (besides `curl_multi_wakeup`).
final class CurlLoop: @unchecked Sendable {
    // Safe because the loop is handed to exactly one thread at creation and used only there;
    // what it shares with tasks goes through the engine's locked inbox.

    private let multi: MultiHandle
    private let engine: CurlEngine
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Easy handles of finished transfers, reset for the next ones: making a handle allocates
    /// and frees large buffers, which under load cost more than the transfer's own work.
    private var idle: [UnsafeMutableRawPointer] = []
    private static let maxIdleHandles = 64

    init(multi: MultiHandle, engine: CurlEngine) {
        self.multi = multi
        self.engine = engine
    }

    func run() {
        while true {
            let (pending, cancelled, stopped) = engine.takeInbox()
            if stopped {
                for transfer in pending { transfer.finish(.failure(.shutDownError(url: transfer.request.url))) }
                break
            }
            for transfer in pending { start(transfer) }
            for transfer in cancelled { abandon(transfer) }
            var stillRunning: Int32 = 0
            ccurl_multi_perform(multi.pointer, &stillRunning)
            collectFinished()
            var ready: Int32 = 0
            // curl_multi_poll waits for socket activity, libcurl's own next timeout (whichever
            // is sooner) or curl_multi_wakeup from a task handing in work.
            ccurl_multi_poll(multi.pointer, nil, 0, 10_000, &ready)
        }
        for transfer in running.values {
            remove(transfer)
            transfer.finish(.failure(.shutDownError(url: transfer.request.url)))
        }
        running = [:]
        for easy in idle { ccurl_easy_cleanup(easy) }
        idle = []
        ccurl_multi_cleanup(multi.pointer)
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.isCancelled {
            transfer.finish(.failure(.cancelledError(url: transfer.request.url)))
            return
        }
        do {
            let easy = try transfer.makeEasyHandle(reusing: idle.popLast())
            let code = ccurl_multi_add_handle(multi.pointer, easy)
            guard code == CURLM_OK else {
                let message = String(cString: ccurl_multi_strerror(code))
                transfer.cleanUp()
                transfer.finish(.failure(HTTPClientError(kind: .other, url: transfer.request.url, message: message)))
                return
            }
            running[easy] = transfer
        } catch {
            transfer.cleanUp()
            transfer.finish(.failure(error))
        }
    }

    private func abandon(_ transfer: CurlTransfer) {
        // A transfer not running yet is caught by `start`; one already done is left alone.
        guard let easy = transfer.easy, running[easy] != nil else { return }
        remove(transfer)
        transfer.finish(.failure(.cancelledError(url: transfer.request.url)))
    }

    private func remove(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy else { return }
        ccurl_multi_remove_handle(multi.pointer, easy)
        running[easy] = nil
        guard let released = transfer.releaseEasyHandle() else { return }
        if idle.count < Self.maxIdleHandles {
            ccurl_easy_reset(released)
            idle.append(released)
        } else {
            ccurl_easy_cleanup(released)
        }
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = ccurl_multi_info_read(multi.pointer, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = running[easy]
            else { continue }
            let outcome = transfer.outcome(message.pointee.data.result)
            remove(transfer)
            transfer.finish(outcome)
        }
    }
}
