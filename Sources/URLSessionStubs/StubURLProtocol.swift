import Foundation
import HTTPHandlerKit
import Platform

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLProtocol of a ``StubURLSessionHost``'s sessions: it answers each HTTP(S) request in
/// process with the host's handler, on the thread URLSession starts it on.
///
/// It is listed only in hosts' configurations (never registered process-wide), finds its host
/// from the request's task (see ``StubURLSessionHost``), and fails a request no live host
/// owns with `URLError.resourceUnavailable`.
public final class StubURLProtocol: URLProtocol {
    private enum Stage {
        case idle
        case playing(ReplyDelivery)
        case stopped
    }

    private let stage = Locked(Stage.idle)

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
        switch SessionLookup.host(request: request, task: task) {
        case .success(let found):
            host = found
        case .failure(let missing):
            return sink.failed(Self.noHostError(url: url, token: missing.token))
        }
        let body: [UInt8]
        do {
            body = try RequestBodyReader.body(
                of: request, task: task, limit: host.options.maximumRequestBodySize)
        } catch {
            return sink.failed(URLError(error.code, userInfo: [NSURLErrorFailingURLErrorKey: url]))
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

    private static func noHostError(url: URL, token: String?) -> URLError {
        let reason =
            token.map { "No StubURLSessionHost has session token '\($0)': the host was released" }
            ?? "The request's session is not a StubURLSessionHost's: no session token found"
        return URLError(
            .resourceUnavailable,
            userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: reason])
    }
}
