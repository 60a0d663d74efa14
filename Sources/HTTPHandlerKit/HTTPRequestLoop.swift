/// The event loop a request arrived on, as a handler sees it: an identity it hands back to
/// the parts that run on that loop. The server defines what it is (HTTPServerKit's
/// `HTTPEventLoop`); handlers with no server, such as in-process stubs, never see one.
public protocol HTTPRequestLoop: AnyObject, Sendable {}
