// One import for a test target: `import URLSessionStubs` also brings what its API is written
// in, so a test builds mappings (StubFormat: `StubMapping`, `RequestPattern`,
// `ResponseDefinition`), reads the journal and catches every error it throws (MockEngine:
// `LoggedRequest`, `Admin`, `StubSetupError`, `VariantError`, `AdminError`), answers with a
// handler of its own (HTTPHandlerKit) and names methods, statuses, headers and JSON values
// (HTTPCore, JSONKit) with no other import; an OpenAPI document's errors are APISchema's
// (`ContractError`), and its reply source OpenAPIMock's (`OpenAPIResponder`).
@_exported import APISchema
@_exported import HTTPCore
@_exported import HTTPHandlerKit
@_exported import JSONKit
@_exported import MockEngine
@_exported import OpenAPIMock
@_exported import StubFormat
