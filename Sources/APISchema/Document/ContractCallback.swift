import HTTPCore

/// One request an operation's `callbacks` says the API sends: under a callback's name, the
/// URL as a runtime expression template and one of its path item's operations.
public struct ContractCallback: Sendable, Hashable {
    /// The callback's name, the key under `callbacks` (`onEvent`).
    public var name: String
    /// The key of its path item, as written: the URL as a runtime expression template
    /// (`{$request.body#/callbackUrl}`); read with ``RuntimeExpressionTemplate``.
    public var expression: String
    /// Where the key is in the document, a JSON pointer
    /// (`#/paths/~1subscribe/post/callbacks/onEvent/{$request.body#~1callbackUrl}`).
    public var pointer: String
    /// The method of the request sent.
    public var method: HTTPMethod
    /// Its parameters (the path item's and its own).
    public var parameters: [ContractParameter]
    /// Its `requestBody`, when it has one.
    public var requestBody: ContractRequestBody?

    /// Creates a callback.
    public init(
        name: String, expression: String, pointer: String, method: HTTPMethod, parameters: [ContractParameter] = [],
        requestBody: ContractRequestBody? = nil
    ) {
        self.name = name
        self.expression = expression
        self.pointer = pointer
        self.method = method
        self.parameters = parameters
        self.requestBody = requestBody
    }
}
