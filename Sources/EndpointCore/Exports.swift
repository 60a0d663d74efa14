// `import EndpointCore` (or EndpointKit) also brings what an endpoint is written in: methods,
// statuses, headers and the transport vocabulary (HTTPCore: `HTTPMethod`, `HTTPHeaders`,
// `HTTPTransport`, `ClosureTransport`).
@_exported import HTTPCore
