// `import HTTPClient` also brings the requests and responses `CurlTransport` sends and returns
// (HTTPCore: `HTTPClientRequest`, `HTTPClientResponse`, `HTTPTransport`).
@_exported import HTTPCore
