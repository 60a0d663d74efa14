import HTTPCore

/// Which connection in the middle of a request makes room for a new client at the connection
/// or descriptor limit, once no connection of the loop is idle between requests, and the
/// status it is answered with before it is closed.
///
/// The candidates are the loop's stalest head (the request head, among the earliest begun,
/// that has made the least recent progress) and its stalest body (the request body that has
/// made the least recent progress of all: the head of its ``ProgressList``). In order:
/// 1. a head or body that has sent nothing for at least the stalled age, whichever has sent
///    nothing for longer (the head on a tie): 408, since the server is done waiting for it
///    (RFC 9110 §15.5.9);
/// 2. else, for a client really waiting, the stalest body however recently it moved: 503, a
///    temporary overload (RFC 9110 §15.6.4), not a timeout; heads keep the stalled age, so a
///    client is not cut off between two packets of its head;
/// 3. else none: the new client gets the 503.
///
/// Connections being processed or answered are never candidates.
enum EvictionRule {
    /// A connection that may make room, with when its request last made progress.
    struct Candidate<Member> {
        var member: Member
        var lastProgress: UInt64

        init(_ member: Member, lastProgress: UInt64) {
            self.member = member
            self.lastProgress = lastProgress
        }
    }

    /// The connection to close, and what it is told first.
    struct Choice<Member> {
        var member: Member
        var status: HTTPStatus
    }

    /// The choice at `now`, or nil when nothing may be closed. `clientWaiting` says a client
    /// was accepted and needs the place (not so when `accept` fails at the descriptor limit
    /// with nobody known to wait): only then does a body that moved lately make room.
    static func choose<Member>(
        stalestHead: Candidate<Member>?, stalestBody: Candidate<Member>?, now: UInt64, stalledAge: UInt64,
        clientWaiting: Bool
    ) -> Choice<Member>? {
        let stalledHead = stalestHead.flatMap { now &- $0.lastProgress >= stalledAge ? $0 : nil }
        let stalledBody = stalestBody.flatMap { now &- $0.lastProgress >= stalledAge ? $0 : nil }
        if let head = stalledHead, head.lastProgress <= stalledBody?.lastProgress ?? .max {
            return Choice(member: head.member, status: .requestTimeout)
        }
        if let body = stalledBody { return Choice(member: body.member, status: .requestTimeout) }
        if clientWaiting, let body = stalestBody { return Choice(member: body.member, status: .serviceUnavailable) }
        return nil
    }
}

extension EvictionRule.Choice: Equatable where Member: Equatable {}
