import Foundation
import Platform

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

#if canImport(FoundationNetworking)
/// Where a task class keeps `session` among its reflected fields: found once per class by
/// label, then read by position (projecting every field before it on each request cost about
/// a tenth of a stubbed round trip).
enum StoredSessionField {
    private struct Place {
        /// How many superclass mirrors up the field is.
        var depth: Int
        /// Its position among that mirror's children.
        var offset: Int
    }

    private static let places = Locked<[ObjectIdentifier: Place]>([:])

    static func session(of task: URLSessionTask) -> URLSession? {
        let key = ObjectIdentifier(type(of: task))
        if let place = places.withLock({ $0[key] }), let child = child(of: task, at: place), child.label == "session" {
            return child.value as? URLSession
        }
        var mirror: Mirror? = Mirror(reflecting: task)
        var depth = 0
        while let current = mirror {
            for (offset, child) in current.children.enumerated() where child.label == "session" {
                places.withLock { $0[key] = Place(depth: depth, offset: offset) }
                return child.value as? URLSession
            }
            mirror = current.superclassMirror
            depth += 1
        }
        return nil
    }

    private static func child(of task: URLSessionTask, at place: Place) -> Mirror.Child? {
        var mirror = Mirror(reflecting: task)
        for _ in 0..<place.depth {
            guard let superclass = mirror.superclassMirror else { return nil }
            mirror = superclass
        }
        let children = mirror.children
        guard place.offset < children.count else { return nil }
        return children[children.index(children.startIndex, offsetBy: place.offset)]
    }
}
#endif
