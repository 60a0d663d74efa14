import Foundation
import HTTPHandlerKit
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLProtocol of a ``StubURLSessionHost``'s sessions: it answers each HTTP(S) request in
/// process with the host's handler, on the thread URLSession starts it on.
///
/// Each host has a subclass of its own (``StubURLSessionHost/protocolClass``), listed first in
/// the `protocolClasses` of the host's configurations and never registered process-wide
/// (except through ``StubURLSessionHost/claimSharedSession(fileID:line:)``). Foundation creates
/// protocol instances itself; an instance finds its host from its own class, with no look at
/// the task or its session. `StubURLProtocol` itself belongs to no host: a session that lists
/// it, or the class of a released host, fails its requests with `URLError.resourceUnavailable`.
public class StubURLProtocol: URLProtocol {
    private enum Stage {
        case idle
        case playing(ReplyDelivery)
        case stopped
    }

    /// Whom a protocol class answers for.
    enum HostLookup {
        case found(StubURLSessionHost)
        /// Why no host answers, for the error's description.
        case missing(String)
    }

    private let stage = Locked(Stage.idle)

    /// The host this class answers for (each subclass says).
    class var host: HostLookup {
        .missing(
            "StubURLProtocol itself belongs to no StubURLSessionHost: make the session from a host's "
                + "configuration, or list the host's protocolClass")
    }

    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override public class func canInit(with task: URLSessionTask) -> Bool {
        guard let request = task.currentRequest ?? task.originalRequest else { return false }
        return canInit(with: request)
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override public func startLoading() {
        guard let client else { return }
        let sink = ProtocolClientSink(urlProtocol: self, client: client)
        guard let url = request.url else { return sink.failed(URLError(.badURL)) }
        let host: StubURLSessionHost
        switch type(of: self).host {
        case .found(let found):
            host = found
        case .missing(let reason):
            let info: [String: Any] = [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: reason]
            return sink.failed(URLError(.resourceUnavailable, userInfo: info))
        }
        let body: [UInt8]
        do {
            body = try RequestBodyReader.body(of: request, task: task, limit: host.options.maximumRequestBodySize)
        } catch {
            var info = error.userInfo
            info[NSURLErrorFailingURLErrorKey] = url
            return sink.failed(URLError(error.code, userInfo: info))
        }
        let serverRequest = HTTPServerRequest(request, url: url, body: body)
        let delivery = ReplyDelivery(sink: sink, host: host, url: url, method: serverRequest.method)
        let started = stage.withLock { stage -> Bool in
            guard case .idle = stage else { return false }
            stage = .playing(delivery)
            return true
        }
        // Stopped while reading the request: nothing more reaches the client.
        guard started else { return }
        delivery.play(host.handler.reply(to: serverRequest))
    }

    override public func stopLoading() {
        let playing = stage.withLock { stage -> ReplyDelivery? in
            defer { stage = .stopped }
            if case .playing(let delivery) = stage { return delivery }
            return nil
        }
        playing?.stop()
    }
}

/// The protocol class of the host whose index `Key` spells (``StubHostKey``): one
/// specialisation per host, made when the host is, so the class Foundation instantiates names
/// the host. A released host's index finds nothing in ``StubSessionRegistry``.
final class HostURLProtocol<Key: StubHostKey>: StubURLProtocol {
    override class var host: HostLookup {
        let index = Key.index
        guard let host = StubSessionRegistry.host(index: index) else {
            return .missing(
                "The StubURLSessionHost #\(index) this session's configuration came from was released; "
                    + "no other host answers its requests")
        }
        return .found(host)
    }
}

/// The class ``StubURLSessionHost/claimSharedSession(fileID:line:)`` registers for
/// `URLSession.shared`: one class for every claim (FoundationNetworking's shared session keeps
/// the classes it was made with), taking requests only while a claim holds, for its host.
final class SharedSessionURLProtocol: StubURLProtocol {
    override class var host: HostLookup {
        guard let host = SharedSessionClaims.host else {
            return .missing("No StubURLSessionHost has claimed URLSession.shared")
        }
        return .found(host)
    }

    override class func canInit(with request: URLRequest) -> Bool {
        super.canInit(with: request) && SharedSessionClaims.host != nil
    }
}
