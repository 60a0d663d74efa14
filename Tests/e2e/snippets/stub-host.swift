// A test that made a host with a delayed answer.
import Testing
import URLSessionStubs

let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "ok")) })
