import HTTPHandlerKit

extension HTTPServerRequest {
    /// The server's event loop the request arrived on, where its ``HTTPLoopExtension``s live;
    /// nil for a request a test or an in-process caller made.
    package var serverLoop: HTTPEventLoop? { eventLoop as? HTTPEventLoop }
}
