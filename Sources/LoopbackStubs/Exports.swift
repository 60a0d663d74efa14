// One import for a UI-test target: `import LoopbackStubs` also brings what its API is written
// in, so a test builds mappings (StubFormat), reads the journal and catches the errors it throws
// (MockEngine: `Admin`, `LoggedRequest`, `StubSetupError`; HTTPServerKit: `HTTPServerError`),
// and names methods, statuses, headers and JSON values (HTTPCore, JSONKit) with no other
// import; an OpenAPI document's errors are APISchema's, its reply source OpenAPIMock's.
// The engine as a handler (AdminAPI: `StubHandler`), the clock of its configuration (Platform:
// `TimeSource`) and the XML comparison options of an XML body pattern (XMLKit) are re-exported
// for the same reason; each of those modules makes public only what these APIs name.
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
@_exported import XMLKit
