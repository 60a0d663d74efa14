import HTTPClient
import HTTPCore

/// Hears when requests start and finish: the seeds' automatic load indicator.
///
/// Called from whatever task sends the request, possibly several at once; `petvet` uses it
/// to draw a spinner and to count requests.
public protocol ActivityObserver: Sendable {
    /// A request is about to be sent.
    func requestStarted(_ request: HTTPClientRequest)
    /// The request finished: `error` is nil when it succeeded.
    func requestFinished(_ request: HTTPClientRequest, error: PetClientError?)
}

/// Shows a failed request's error to the user: the seeds' automatic error alert.
///
/// Called from whatever task sent the request; `petvet` prints the error to stderr.
public protocol ErrorPresenter: Sendable {
    /// Shows the error.
    func present(_ error: PetClientError, for request: HTTPClientRequest)
}
