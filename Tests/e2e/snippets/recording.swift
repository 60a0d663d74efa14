// Recording in process: the recorder (brought by StubServerKit) and libcurl's transport.
import HTTPClient
import StubServerKit
