import HTTPHandlerKit

/// The timers of one event loop: a binary min-heap of deadlines, with actions kept by id so
/// that a cancelled timer is simply forgotten and skipped when its deadline comes.
struct TimerHeap {
    struct Entry {
        var deadline: UInt64
        var id: UInt64

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    private var entries: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    /// How many timers are scheduled and not cancelled.
    var count: Int { actions.count }

    /// Schedules `action` at `deadline` (monotonic nanoseconds) and returns its id.
    mutating func schedule(at deadline: UInt64, _ action: @escaping () -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        actions[id] = action
        entries.append(Entry(deadline: deadline, id: id))
        siftUp(entries.count - 1)
        return id
    }

    /// Forgets a timer; its heap entry is dropped when it reaches the top.
    mutating func cancel(_ id: UInt64) {
        actions[id] = nil
    }

    /// The earliest deadline of a live timer, or nil when there is none.
    mutating func nextDeadline() -> UInt64? {
        while let top = entries.first {
            if actions[top.id] != nil { return top.deadline }
            removeTop()
        }
        return nil
    }

    /// Removes and returns the action of the earliest timer due at `now`, or nil.
    mutating func popDue(now: UInt64) -> (() -> Void)? {
        while let top = entries.first, top.deadline <= now {
            removeTop()
            if let action = actions.removeValue(forKey: top.id) { return action }
        }
        return nil
    }

    private mutating func removeTop() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var smallest = left
            if left + 1 < entries.count && entries[left + 1].precedes(entries[left]) { smallest = left + 1 }
            guard entries[smallest].precedes(entries[parent]) else { return }
            entries.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
