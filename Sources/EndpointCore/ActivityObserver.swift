import HTTPCore

/// Hears when requests start and finish: the seeds' automatic load indicator.
///
/// Called from whatever task sends the request, possibly several at once; `petvet` uses it
/// to draw a spinner and to count requests.
public protocol ActivityObserver: Sendable {
    /// A request is about to be sent.
    func requestStarted(_ request: HTTPClientRequest)
    /// The request finished: `error` is nil when it succeeded.
    func requestFinished(_ request: HTTPClientRequest, error: EndpointError?)
}
