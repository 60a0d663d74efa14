import HTTPHandlerKit

/// Connections waiting under one fixed timeout, oldest first: a doubly linked list through
/// connection slots. Every member's deadline (set by its ``ConnectionStateMachine``) is its
/// entry time plus the same duration, so the list stays sorted by deadline and each move is
/// O(1), with no allocation per request.
struct TimeoutList {
    /// Which list a connection is in.
    enum Kind: Int, CaseIterable {
        /// A request head is being received (header timeout: 408).
        case header
        /// Keep-alive idle, or a response stalled on a slow reader (idle timeout).
        case idle
        /// A request body is being received (body timeout: 408).
        case body
        /// Draining the client's last bytes after our final response (lingering close).
        case linger
    }

    /// Links of one connection, stored in the connection.
    struct Links {
        var list: Kind?
        var previous = -1
        var next = -1
        var deadline: UInt64 = 0
    }

    private(set) var head = -1
    private var tail = -1

    /// Appends a slot whose links are free, due at `deadline`.
    mutating func append(_ slot: Int, links: inout Links, kind: Kind, deadline: UInt64, connections: [Connection?]) {
        links.list = kind
        links.deadline = deadline
        links.previous = tail
        links.next = -1
        if tail >= 0 { connections[tail]?.timeoutLinks.next = slot } else { head = slot }
        tail = slot
    }

    /// Unlinks a slot that is in this list.
    mutating func remove(_ slot: Int, links: inout Links, connections: [Connection?]) {
        if links.previous >= 0 {
            connections[links.previous]?.timeoutLinks.next = links.next
        } else {
            head = links.next
        }
        if links.next >= 0 {
            connections[links.next]?.timeoutLinks.previous = links.previous
        } else {
            tail = links.previous
        }
        links = Links()
    }
}
