/// How a ``StubURLSessionHost`` plays the timing of its handler's replies.
///
/// By default delays and dribbles are recorded, not waited, so tests stay fast and can still
/// assert what the stub asked for (``StubURLSessionHost/recordedDelays``).
///
/// ```swift
/// let host = StubURLSessionHost(handler: stubs, options: StubSessionOptions(waitsForDelays: true))
/// ```
public struct StubSessionOptions: Sendable, Hashable {
    /// Whether a delayed reply really waits, and a dribbled body really arrives in chunks over
    /// time (scheduled, never blocking a thread); otherwise both are recorded and answered at once.
    public var waitsForDelays: Bool
    /// The largest request body read from a request's body stream or upload; a larger one
    /// fails the request with `URLError.dataLengthExceedsMaximum`.
    public var maximumRequestBodySize: Int

    /// Creates options.
    public init(waitsForDelays: Bool = false, maximumRequestBodySize: Int = 64 << 20) {
        self.waitsForDelays = waitsForDelays
        self.maximumRequestBodySize = maximumRequestBodySize
    }
}
