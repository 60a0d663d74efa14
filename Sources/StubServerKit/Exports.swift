// One import for a test target: `import StubServerKit` also brings what its API is written in:
// the mapping model (StubFormat), the engine's admin, journal and error types (MockEngine),
// what a handler receives and returns (HTTPHandlerKit), the server it runs on with its errors
// (HTTPServerKit: `HTTPServerError`), its HTTPS certificate authority (TLSKit: `LocalCertificateAuthority`),
// an OpenAPI document as the fallback reply source (APISchema's `OpenAPIReader`, OpenAPIMock's
// `OpenAPIResponder`, for `fallback`), and methods, statuses, headers and JSON values (HTTPCore, JSONKit).
// The engine as a handler (AdminAPI: `StubHandler`), the clock, poller and file-watcher
// settings of its configuration (Platform: `TimeSource`, `PollerKind`, `FileWatcherKind`) and the
// XML comparison options of an XML body pattern (XMLKit) are re-exported for the same reason;
// each of those modules makes public only what these APIs name.
@_exported import APISchema
@_exported import AdminAPI
@_exported import HTTPCore
@_exported import HTTPHandlerKit
@_exported import HTTPServerKit
@_exported import JSONKit
@_exported import MockEngine
@_exported import OpenAPIMock
@_exported import Platform
@_exported import StubFormat
@_exported import TLSKit
@_exported import XMLKit
