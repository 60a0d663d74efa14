import HTTPCore
import HTTPHandlerKit
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One event-loop thread: it owns a listening socket, its connections and its timers.
///
/// Handlers run on the loop's thread. ``inEventLoop``, ``execute(_:)`` and
/// ``schedule(after:_:ifDropped:)`` are safe from any thread; use ``schedule(after:_:ifDropped:)``
/// for delays instead of sleeping, and ``execute(_:)`` to get back onto the loop.
package final class HTTPEventLoop: HTTPRequestLoop, @unchecked Sendable {
    // Safe to share: everything except `mailbox` and `threadID` is touched only on the loop's
    // own thread (run(), and what it calls, including handlers). Other threads reach the loop
    // only through `mailbox` (behind a lock) plus the poller's thread-safe wake-up, and
    // `threadID` is written before the thread starts serving and read-only afterwards.
    enum Phase { case running, draining, stopped }

    static let listenerToken: UInt64 = .max
    static let signalToken: UInt64 = .max - 2

    let configuration: HTTPServerConfiguration
    /// The server's handler, until the loop finishes: then ``stoppedHandler``. A handler that
    /// keeps the requests it was given (a test server's log, a journal) holds this loop through
    /// each request's `eventLoop`; letting go of it at the end breaks that cycle, so a stopped
    /// server, its loops and their buffers are freed once the server is released.
    private(set) var handler: any HTTPHandler
    let lifecycle: ServerLifecycle
    let poller: any Poller
    let index: Int

    var listener: Int32
    /// A descriptor held in reserve (on /dev/null) and given up at the process's descriptor
    /// limit, so that a waiting client can still be accepted and refused; -1 when none.
    var spareDescriptor: Int32 = -1
    /// Whether the listener is out of the poller for a moment (descriptor limit reached).
    var acceptPaused = false
    var phase = Phase.running
    var connections: [Connection?] = []
    var freeSlots: [Int] = []
    var connectionCount = 0
    var nextGeneration: UInt32 = 0
    var timers = TimerHeap()
    /// The scheduled work on `timers` whose owner must hear if the loop stops before it runs.
    var droppableTimers: [ObjectIdentifier: ScheduledWorkBox] = [:]
    var timeoutLists: [TimeoutList]
    /// The connections receiving a request body, least recent progress first.
    var bodyProgress = ProgressList()
    /// The durations of the connections' deadlines.
    let connectionTimeouts: ConnectionStateMachine.Timeouts
    /// Where the loop reads the time (the configuration's clock).
    let clock: TimeSource
    var now: UInt64
    var dates = DateCache()
    var random: SplitMix64
    let readBuffer: UnsafeMutableRawBufferPointer
    let iovecs: UnsafeMutablePointer<iovec>
    let iovecCapacity = 64
    /// What makes each connection's TLS session on an HTTPS server, and the buffer its writes
    /// gather small pieces in (empty on a plain server).
    let tlsContext: (any ConnectionLayerFactory)?
    let tlsWriteBuffer: UnsafeMutableRawBufferPointer
    /// Loop-local components (``HTTPLoopExtension``), by type and in the order made.
    var extensions: [ObjectIdentifier: any HTTPLoopExtension] = [:]
    var extensionList: [any HTTPLoopExtension] = []
    /// Connections with an answer that came outside their read path (a deferred or delayed
    /// reply), sent when the loop has handled what was ready (``sendQueuedAnswers()``).
    var queuedAnswers: [Connection] = []
    /// The answers ``sendQueuedAnswers()`` is sending.
    private var answering: [Connection] = []
    /// The descriptors extensions watch, and whose each is.
    var watched: [Int32: Watch] = [:]

    private let mailbox = Locked(Mailbox())
    private var threadID = ThreadIdentity.none

    struct Mailbox {
        var jobs: [@Sendable () -> Void] = []
        /// The scheduled work among `jobs` still to be put on the timers that must hear if it
        /// never is (``schedule(after:_:ifDropped:)``).
        var droppable: [ScheduledWorkBox] = []
        var wakePending = false
        var closed = false
    }

    init(
        index: Int, listener: Int32, configuration: HTTPServerConfiguration, handler: any HTTPHandler,
        lifecycle: ServerLifecycle, tls: (any ConnectionLayerFactory)? = nil
    ) throws(HTTPServerError) {
        self.index = index
        tlsContext = tls
        tlsWriteBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: tls == nil ? 0 : 16 * 1024, alignment: 16)
        self.listener = listener
        self.configuration = configuration
        self.handler = handler
        self.lifecycle = lifecycle
        let kind = configuration.poller
        poller = try HTTPServerError.platform { () throws(PlatformError) in try kind.makePoller() }
        timeoutLists = Array(repeating: TimeoutList(), count: TimeoutList.Kind.allCases.count)
        connectionTimeouts = ConnectionStateMachine.Timeouts(configuration)
        clock = configuration.clock
        now = clock.monotonicNanoseconds
        var seed = SystemRandomNumberGenerator()
        random = SplitMix64(seed: seed.next())
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        iovecs = UnsafeMutablePointer<iovec>.allocate(capacity: iovecCapacity)
        spareDescriptor = Descriptor.openSpare()
        do {
            try poller.addReadable(listener, token: Self.listenerToken)
        } catch {
            // Every stored property is set, so deinit runs after this throw and frees the
            // buffers: freeing them here too would free them twice.
            if spareDescriptor >= 0 { Descriptor.close(spareDescriptor) }
            poller.close()
            throw HTTPServerError(error)
        }
    }

    deinit {
        readBuffer.deallocate()
        iovecs.deallocate()
        tlsWriteBuffer.deallocate()
    }

    /// Whether the caller runs on this loop's thread.
    package var inEventLoop: Bool {
        threadID == .current
    }

    /// Runs `work` on the loop's thread soon (never inline, even when called on the loop);
    /// work submitted after the loop stopped is dropped.
    package func execute(_ work: @escaping @Sendable () -> Void) {
        // The wake-up is written under the lock so that it can never reach the eventfd's
        // number after `finish()` closed it (and the number was reused).
        mailbox.withLock { box in
            guard !box.closed else { return }
            box.jobs.append(work)
            if !box.wakePending {
                box.wakePending = true
                poller.wake()
            }
        }
    }

    /// Runs `work` on the loop's thread after `delay`, using the loop's timers. When the loop
    /// stops first, `work` never runs and `dropped` is called instead (on the loop's thread as
    /// it stops, or at once when it had stopped), unless the work was cancelled: a caller that
    /// holds something for the work (a slot, a count) gets it back.
    @discardableResult
    package func schedule(
        after delay: Duration, _ work: @escaping @Sendable () -> Void, ifDropped dropped: (@Sendable () -> Void)? = nil
    ) -> HTTPScheduledWork {
        let deadline = clock.monotonicNanoseconds &+ delay.nanoseconds
        let box = ScheduledWorkBox()
        box.dropped = dropped
        let guarded: @Sendable () -> Void = { [self] in
            if box.dropped != nil { droppableTimers[ObjectIdentifier(box)] = nil }
            if !box.cancelled { work() }
        }
        let register: @Sendable () -> Void = { [self] in
            box.timerID = timers.schedule(at: deadline, guarded)
            if box.dropped != nil { droppableTimers[ObjectIdentifier(box)] = box }
        }
        if inEventLoop {
            register()
        } else {
            let accepted = mailbox.withLock { mailbox -> Bool in
                guard !mailbox.closed else { return false }
                mailbox.jobs.append(register)
                if dropped != nil { mailbox.droppable.append(box) }
                if !mailbox.wakePending {
                    mailbox.wakePending = true
                    poller.wake()
                }
                return true
            }
            if !accepted { dropped?() }
        }
        return HTTPScheduledWork(loop: self, box: box)
    }

    /// Starts the loop's thread.
    func startThread() throws(HTTPServerError) {
        let thread = try HTTPServerError.platform { () throws(PlatformError) in
            try PlatformThread.start { self.run() }
        }
        thread.detach()
    }

    private func run() {
        threadID = .current
        lifecycle.loopStarted()
        while phase != .stopped {
            if !queuedAnswers.isEmpty { sendQueuedAnswers() }
            if !extensionList.isEmpty { extensionsBeforeWait() }
            if !poller.isEdgeTriggered { updateInterest() }
            let timeout = pollTimeout()
            let count = poller.poll(timeoutMilliseconds: timeout)
            guard count >= 0 else {
                // The poller itself failed (its descriptor closed by a stray close elsewhere in
                // the process, say): nothing can be watched any more, and polling again would
                // fail at once, forever. Stop, closing every connection, instead of spinning.
                for case let connection? in connections { closeConnection(connection, reset: false) }
                break
            }
            now = clock.monotonicNanoseconds
            dates.update(epochSeconds: clock.wallSeconds)
            for position in 0..<count {
                handle(poller.event(at: position))
            }
            runDueTimers()
            runExtensionDeadlines()
            expireTimeouts()
        }
        finish()
    }

    private func handle(_ event: PollEvent) {
        switch event.token {
        case Self.listenerToken:
            acceptConnections()
        case poller.wakeToken:
            poller.drainWake()
            runMailbox()
        case Self.signalToken:
            lifecycle.signalReceived()
        default:
            if event.token >> 32 == 0 { return handleExtensionEvent(event) }
            let slot = Int(truncatingIfNeeded: event.token & 0xFFFF_FFFF)
            guard slot < connections.count, let connection = connections[slot],
                connection.generation == UInt32(truncatingIfNeeded: event.token >> 32)
            else { return }
            if event.readable || event.hangup || event.error {
                connection.machine.readinessReported()
                connection.onReadable()
            }
            if event.writable && connection.writeBlocked && !connection.isClosed {
                connection.onWritable()
            }
        }
    }

    private func runMailbox() {
        let jobs = mailbox.withLock { box in
            box.wakePending = false
            // Their registrations are among the jobs, run now.
            box.droppable.removeAll()
            defer { box.jobs.removeAll() }
            return box.jobs
        }
        for job in jobs { job() }
    }

    private func runDueTimers() {
        while let action = timers.popDue(now: now) {
            action()
            now = clock.monotonicNanoseconds
        }
    }

    private func pollTimeout() -> Int32 {
        var earliest = min(timers.nextDeadline() ?? .max, earliestExtensionDeadline ?? .max)
        for list in timeoutLists where list.head >= 0 {
            if let deadline = connections[list.head]?.timeoutLinks.deadline { earliest = min(earliest, deadline) }
        }
        guard earliest != .max else { return -1 }
        let current = clock.monotonicNanoseconds
        guard earliest > current else { return 0 }
        let milliseconds = (earliest - current + 999_999) / 1_000_000
        return Int32(clamping: milliseconds)
    }

    /// Sends the answers queued while the loop handled what was ready: together, just before
    /// it waits, so the clients they wake do not preempt work the loop still had to do.
    /// Sending one may take a pipelined request and queue its answer: sent in the same pass.
    func sendQueuedAnswers() {
        while !queuedAnswers.isEmpty {
            // Swapped with a kept list, so neither is allocated again per batch.
            swap(&queuedAnswers, &answering)
            for connection in answering {
                let action = connection.machine.queuedAnswerTaken()
                guard connections[connection.slot] === connection else { continue }
                connection.perform(action)
            }
            answering.removeAll(keepingCapacity: true)
        }
    }

    /// What a finished loop holds instead of the server's handler; never called (a finished
    /// loop takes no request).
    private static let stoppedHandler = HTTPClosureHandler { _ in .response(HTTPResponse(status: .serviceUnavailable)) }

    private func finish() {
        sendQueuedAnswers()
        if listener >= 0 {
            poller.remove(listener)
            Descriptor.close(listener)
        }
        listener = -1
        if spareDescriptor >= 0 { Descriptor.close(spareDescriptor) }
        spareDescriptor = -1
        let unregistered = mailbox.withLock { box in
            box.closed = true
            box.jobs = []
            defer { box.droppable = [] }
            return box.droppable
        }
        stopExtensions()
        poller.close()
        timers = TimerHeap()
        // Scheduled work that will never run: its owners hear it.
        let dropped = unregistered + droppableTimers.values
        droppableTimers = [:]
        for box in dropped where !box.cancelled { box.dropped?() }
        handler = Self.stoppedHandler
        lifecycle.loopStopped()
    }
}

/// A scheduled piece of work that can still be cancelled.
package struct HTTPScheduledWork: Sendable {
    let loop: HTTPEventLoop
    let box: ScheduledWorkBox

    /// Cancels the work if it has not run yet.
    package func cancel() {
        let box = self.box
        let loop = self.loop
        let cancel: @Sendable () -> Void = {
            box.cancelled = true
            if let id = box.timerID { loop.timers.cancel(id) }
            loop.droppableTimers[ObjectIdentifier(box)] = nil
        }
        if loop.inEventLoop { cancel() } else { loop.execute(cancel) }
    }
}

/// Where a scheduled work item's timer id lands once the loop has registered it.
final class ScheduledWorkBox: @unchecked Sendable {
    // Safe to share: the fields are read and written on the owning loop's thread only, but for
    // `dropped`, set before the box is shared.
    var timerID: UInt64?
    var cancelled = false
    /// Told when the loop stops before the work ran (set before the box is shared).
    var dropped: (@Sendable () -> Void)?
}
