import HTTPCore

/// A request a fallback source asks petmock to send once its answer is written (an OpenAPI
/// operation's callback): sent by the webhooks' dispatcher, within its bounds, its outcome in
/// the same log (``WebhookCall/callback``). The request is made when it is sent, from the
/// triggering exchange; a URL that cannot be made is logged as refused and nothing is sent.
public struct DocumentCallback: Sendable {
    /// Why a callback's request could not be made.
    public struct Failure: Error, Sendable {
        /// The URL as far as it was made (the template as written when it could not be evaluated).
        public var url: String
        /// What was missing or wrong.
        public var message: String

        /// Creates a failure.
        public init(url: String, message: String) {
            self.url = url
            self.message = message
        }
    }

    /// The callback's name (`onEvent`).
    public var name: String
    /// The operation whose answer it follows, `POST /subscribe`.
    public var operation: String
    /// The method it sends.
    public var method: String
    /// Its URL as written (a runtime expression template).
    public var url: String
    /// Makes the request, given the webhook timeout.
    public var makeRequest: @Sendable (_ timeout: Duration) -> Result<HTTPClientRequest, Failure>

    /// Creates a callback.
    public init(
        name: String, operation: String, method: String, url: String,
        makeRequest: @escaping @Sendable (_ timeout: Duration) -> Result<HTTPClientRequest, Failure>
    ) {
        self.name = name
        self.operation = operation
        self.method = method
        self.url = url
        self.makeRequest = makeRequest
    }
}
