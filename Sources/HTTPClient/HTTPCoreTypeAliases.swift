import HTTPCore

// The client vocabulary lives in HTTPCore; these names keep code that imports only HTTPClient
// compiling until it imports HTTPCore itself. HTTPClient imports HTTPCore, so in a file that
// imports both, these aliases shadow HTTPCore's names without ambiguity (same types).

/// HTTPCore's ``HTTPCore/HTTPClientRequest``, for code that imports only HTTPClient.
public typealias HTTPClientRequest = HTTPCore.HTTPClientRequest
/// HTTPCore's ``HTTPCore/HTTPClientResponse``, for code that imports only HTTPClient.
public typealias HTTPClientResponse = HTTPCore.HTTPClientResponse
/// HTTPCore's ``HTTPCore/HTTPClientError``, for code that imports only HTTPClient.
public typealias HTTPClientError = HTTPCore.HTTPClientError
