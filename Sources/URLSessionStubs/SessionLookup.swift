import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Finds the host a ``StubURLProtocol`` serves, from what Foundation gives it: its request and
/// its task.
///
/// A host's token is in its configuration's `httpAdditionalHeaders`, but neither platform
/// reliably applies those headers before a URLProtocol sees the request (FoundationNetworking
/// adds them in its libcurl protocol only; Darwin stopped adding them for URLProtocols in
/// iOS 8). So the token is read from, in order: the request and the task's requests (where a
/// platform or the caller did set it), then the configuration of the session that owns the
/// task. The host's own session is recognised directly, without reading its configuration.
enum SessionLookup {
    /// The host for this request and task, or the token that found none (nil when there is none).
    static func host(request: URLRequest, task: URLSessionTask?) -> Result<StubURLSessionHost, MissingHost> {
        let header = StubSessionRegistry.tokenHeader
        var token = request.value(forHTTPHeaderField: header)
        // FoundationNetworking's task requests are the request itself: not read again there.
        #if !canImport(FoundationNetworking)
        if token == nil, let task {
            token =
                task.currentRequest?.value(forHTTPHeaderField: header)
                ?? task.originalRequest?.value(forHTTPHeaderField: header)
        }
        #endif
        #if canImport(FoundationNetworking)
        if token == nil, let task, let address = StoredSessionField.sessionAddress(of: task),
            let host = StubSessionRegistry.host(forSessionAddress: address)
        {
            return .success(host)
        }
        #endif
        if token == nil, let task, let session = owningSession(of: task) {
            if let host = StubSessionRegistry.host(for: session) { return .success(host) }
            token = session.configuration.httpAdditionalHeaders?[AnyHashable(header)] as? String
        }
        guard let token else { return .failure(MissingHost(token: nil)) }
        guard let host = StubSessionRegistry.host(for: token) else { return .failure(MissingHost(token: token)) }
        return .success(host)
    }

    /// Why no host answers: the token found, if any.
    struct MissingHost: Error {
        let token: String?
    }

    /// The session that created `task`. URLSessionTask has no public `session`; FoundationNetworking
    /// keeps it in a stored property `session`, which reflection reads, and Darwin's task
    /// answers the `session` key.
    static func owningSession(of task: URLSessionTask) -> URLSession? {
        #if canImport(FoundationNetworking)
        StoredSessionField.session(of: task)
        #else
        guard task.responds(to: NSSelectorFromString("session")) else { return nil }
        return task.value(forKey: "session") as? URLSession
        #endif
    }
}
