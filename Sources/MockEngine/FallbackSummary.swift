/// What the near-miss 404 says of the fallback source (``FallbackReplySource``) for a request
/// it left unanswered: where it serves, and its operations closest to the request.
public struct FallbackSummary: Sendable, Hashable {
    /// The path the source's operations are mounted under, `/api/v1`.
    public var mountPoint: String
    /// The operations closest to the request, closest first, as requests name them, the mount
    /// point included: `GET /api/v1/orders`.
    public var closestOperations: [String]

    /// Creates a summary.
    public init(mountPoint: String, closestOperations: [String]) {
        self.mountPoint = mountPoint
        self.closestOperations = closestOperations
    }
}
