import HTTPCore
import JSONKit

/// What runtime expressions are evaluated in: one request and, once answered, its response.
public struct RuntimeExchange: Sendable {
    /// One message's parts an expression may read.
    public struct Part: Sendable {
        /// The header fields.
        public var headers: HTTPHeaders
        /// The query parameters, decoded, in order (a response has none).
        public var query: [(name: String, value: String)]
        /// The path parameters by name (a response has none).
        public var pathValues: [String: String]
        /// The body's bytes.
        public var body: [UInt8]

        /// Creates a part.
        public init(
            headers: HTTPHeaders = HTTPHeaders(), query: [(name: String, value: String)] = [],
            pathValues: [String: String] = [:], body: [UInt8] = []
        ) {
            self.headers = headers
            self.query = query
            self.pathValues = pathValues
            self.body = body
        }

        /// The body as JSON, nil when it is not.
        func json() -> JSONValue? {
            try? JSONParser().parse(body)
        }
    }

    /// The request's method, `POST`.
    public var method: String
    /// The request's full URL, `http://localhost:8080/subscribe?x=1`.
    public var url: String
    /// The request.
    public var request: Part
    /// The response's status; nil before it is answered.
    public var statusCode: Int?
    /// The response; nil before it is answered.
    public var response: Part?

    /// Creates an exchange.
    public init(method: String, url: String, request: Part, statusCode: Int? = nil, response: Part? = nil) {
        self.method = method
        self.url = url
        self.request = request
        self.statusCode = statusCode
        self.response = response
    }

    func message(_ message: RuntimeExpression.Message) -> Part? {
        switch message {
        case .request: request
        case .response: response
        }
    }
}
