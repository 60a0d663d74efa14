/// The connections of a loop receiving a request body, least recent progress first: a doubly
/// linked list through connection slots, beside the body ``TimeoutList`` (which keeps the
/// order in which bodies began, for their deadlines). A connection joins at the tail when its
/// body deadline is armed, goes back to the tail each time bytes of its body arrive, and
/// leaves with that deadline; so the head is the body that has made the least recent progress
/// (of two that progressed at the same reading of the clock, the one read first). Every move
/// is O(1), with no allocation.
struct ProgressList {
    /// Links of one connection, stored in the connection.
    struct Links {
        var isMember = false
        var previous = -1
        var next = -1
    }

    private(set) var head = -1
    private var tail = -1

    /// Appends a slot that is not in the list.
    mutating func append(_ slot: Int, links: inout Links, connections: [Connection?]) {
        links.isMember = true
        links.previous = tail
        links.next = -1
        if tail >= 0 { connections[tail]?.progressLinks.next = slot } else { head = slot }
        tail = slot
    }

    /// Unlinks a slot that is in the list.
    mutating func remove(_ slot: Int, links: inout Links, connections: [Connection?]) {
        if links.previous >= 0 {
            connections[links.previous]?.progressLinks.next = links.next
        } else {
            head = links.next
        }
        if links.next >= 0 {
            connections[links.next]?.progressLinks.previous = links.previous
        } else {
            tail = links.previous
        }
        links = Links()
    }

    /// Moves a slot that is in the list to its tail: its body made progress now.
    mutating func moveToTail(_ slot: Int, links: inout Links, connections: [Connection?]) {
        guard tail != slot else { return }
        remove(slot, links: &links, connections: connections)
        append(slot, links: &links, connections: connections)
    }
}
