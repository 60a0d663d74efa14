import Dispatch

/// Where forwarded requests run: threads of their own (a Dispatch queue), so the proxy answers
/// even while code in the same process keeps Swift's shared concurrency threads busy (a test
/// waiting on a child process, an app blocking in a callback).
final class ProxyExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "petmock.proxy", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
