extension HTTPEventLoop {
    /// How far down a list to look for a connection that may make room: the idle list (which
    /// also holds slow readers of responses, never closed to make room), the header list, and
    /// the body order of progress. Each eviction costs at most this many steps per list,
    /// whatever the number of connections.
    static let evictionCandidatesExamined = 32

    /// At the connection or descriptor limit, closes one of this loop's connections to make
    /// room for a new client; returns whether one closed. With `handingOverItsPlace`, its place
    /// under the connection limit is not given back: the caller takes it. `clientWaiting` says
    /// a client was accepted and needs the place.
    ///
    /// First the longest-idle connection between requests, closed without a word, as nginx
    /// reuses its idle keep-alive connections (RFC 9112 §9.8 lets a server close an idle
    /// connection at any time; clients retry). Else a connection in the middle of a request,
    /// as ``EvictionRule`` chooses: a stalled head or body (408), else, for a waiting client,
    /// the body that has made the least recent progress (503). Connections whose request is
    /// being processed or answered are never closed.
    func makeRoom(handingOverItsPlace: Bool, clientWaiting: Bool) -> Bool {
        guard phase == .running else { return false }
        if let idle = longestIdleConnection() {
            closeConnection(idle, reset: false, releasingItsPlace: !handingOverItsPlace)
            return true
        }
        guard
            let choice = EvictionRule.choose(
                stalestHead: stalestHead(), stalestBody: stalestBody(), now: clock.monotonicNanoseconds,
                stalledAge: configuration.stalledRequestAge.nanoseconds, clientWaiting: clientWaiting)
        else { return false }
        choice.member.evict(answering: choice.status, handingOverItsPlace: handingOverItsPlace)
        return true
    }

    /// The connection idle longest between requests whose client has sent nothing since (a
    /// request sitting unread in its socket, of a client accepted a moment ago, say, is not
    /// lost for nothing).
    private func longestIdleConnection() -> Connection? {
        var slot = timeoutLists[TimeoutList.Kind.idle.rawValue].head
        var examined = 0
        while slot >= 0, examined < Self.evictionCandidatesExamined, let connection = connections[slot] {
            if connection.isBetweenRequests && !connection.hasUnreadInput { return connection }
            slot = connection.timeoutLinks.next
            examined += 1
        }
        return nil
    }

    /// Of the earliest-begun request heads, the one that has sent nothing for longest. The
    /// header list is ordered by when the head began, so its first entries are the likeliest
    /// stalls.
    private func stalestHead() -> EvictionRule.Candidate<Connection>? {
        var stalest: EvictionRule.Candidate<Connection>?
        var slot = timeoutLists[TimeoutList.Kind.header.rawValue].head
        var examined = 0
        while slot >= 0, examined < Self.evictionCandidatesExamined, let connection = connections[slot] {
            if connection.isMidRequest, connection.lastProgress < stalest?.lastProgress ?? .max {
                stalest = EvictionRule.Candidate(connection, lastProgress: connection.lastProgress)
            }
            slot = connection.timeoutLinks.next
            examined += 1
        }
        return stalest
    }

    /// The request body that has made the least recent progress: the first of the order of
    /// progress that may be closed, passing over one whose client has sent bytes the loop has
    /// not read yet (it has moved since) unless every one looked at has.
    private func stalestBody() -> EvictionRule.Candidate<Connection>? {
        var first: Connection?
        var slot = bodyProgress.head
        var examined = 0
        while slot >= 0, examined < Self.evictionCandidatesExamined, let connection = connections[slot] {
            if connection.isMidRequest {
                if !connection.hasUnreadInput {
                    return EvictionRule.Candidate(connection, lastProgress: connection.lastProgress)
                }
                if first == nil { first = connection }
            }
            slot = connection.progressLinks.next
            examined += 1
        }
        return first.map { EvictionRule.Candidate($0, lastProgress: $0.lastProgress) }
    }
}
