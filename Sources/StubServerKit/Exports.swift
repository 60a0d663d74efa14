// One import for a test target: `import StubServerKit` also brings what its API is written in:
// the mapping model (StubFormat), the engine's admin, journal and error types (MockEngine),
// what a handler receives and returns (HTTPHandlerKit), the server it runs on with its errors
// (HTTPServerKit: `HTTPServerError`), its HTTPS certificate authority (TLSKit: `LocalCertificateAuthority`),
// an OpenAPI document as the fallback reply source (APISchema's `OpenAPIReader`, OpenAPIMock's
// `OpenAPIResponder`, for `fallback`), and methods, statuses, headers and JSON values (HTTPCore, JSONKit).
@_exported import APISchema
@_exported import HTTPCore
@_exported import HTTPHandlerKit
@_exported import HTTPServerKit
@_exported import JSONKit
@_exported import MockEngine
@_exported import OpenAPIMock
@_exported import StubFormat
@_exported import TLSKit
