import HTTPCore

/// Shows a failed request's error to the user: the seeds' automatic error alert.
///
/// Called from whatever task sent the request; `petvet` prints the error to stderr.
public protocol ErrorPresenter: Sendable {
    /// Shows the error.
    func present(_ error: EndpointError, for request: HTTPClientRequest)
}
