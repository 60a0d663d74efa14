import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLSessionTask` under way for a ``URLSessionTransport``: started once, stopped by
/// the Swift task's cancellation or by its deadline, and remembering which came first, so a
/// deadline's cancellation is reported as a timeout.
// @unchecked Sendable: every stored property is read and written under `lock` only.
final class URLSessionTransfer: @unchecked Sendable {
    /// What the task's completion handler was given.
    struct Completion: @unchecked Sendable {
        // @unchecked Sendable: Data is a value and the response an immutable object, handed
        // from the session's queue to the awaiting task once, never shared further.
        let data: Data?
        let response: URLResponse?
        let error: (any Error)?

        init(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
            self.data = data
            self.response = response
            self.error = error
        }
    }

    private let lock = NSLock()
    private var task: URLSessionTask?
    private var deadline: Task<Void, Never>?
    private var stopReason: HTTPClientError.Kind?
    private var finished = false

    /// Resumes `task` with redirects refused, and stops it at `timeout` from now if given; a
    /// stop asked for before the task existed stops it at once.
    func start(_ task: URLSessionTask, timeout: Duration?) {
        if #available(iOS 15, tvOS 15, watchOS 8, *) {
            task.delegate = RedirectRefusal.shared
        }
        let deadline = timeout.map { timeout in
            Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.stop(.timedOut)
            }
        }
        lock.lock()
        self.task = task
        self.deadline = deadline
        let stopped = stopReason != nil
        lock.unlock()
        task.resume()
        if stopped { task.cancel() }
    }

    /// Cancels the task, remembering `reason` unless another came first.
    func stop(_ reason: HTTPClientError.Kind) {
        lock.lock()
        if stopReason == nil && !finished { stopReason = reason }
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    /// Ends the deadline once the task completed; returns why it was stopped, if it was.
    func finish() -> HTTPClientError.Kind? {
        lock.lock()
        finished = true
        let deadline = self.deadline
        let reason = stopReason
        lock.unlock()
        deadline?.cancel()
        return reason
    }
}
