/// How long the phases of one transfer took, each measured from the start of the request.
public struct HTTPTimings: Sendable, Hashable {
    /// Until the host name was resolved.
    public var nameLookup: Duration
    /// Until the TCP connection was up (zero for a reused connection).
    public var connect: Duration
    /// Until the first response byte arrived.
    public var firstByte: Duration
    /// Until the transfer ended.
    public var total: Duration

    /// Creates timings; all zero by default.
    public init(
        nameLookup: Duration = .zero, connect: Duration = .zero, firstByte: Duration = .zero, total: Duration = .zero
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
    }
}
