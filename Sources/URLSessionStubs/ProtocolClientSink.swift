import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The calls a ``StubURLProtocol`` makes to its client, from whichever thread an answer is
/// ready on, stopped for good once the protocol is stopped.
///
/// FoundationNetworking's client takes calls from any thread (it hops to the task's queue
/// itself). Darwin's wants them on the thread that called `startLoading`, so there a call
/// from another thread is performed on that thread's run loop, in the mode it was running.
final class ProtocolClientSink: @unchecked Sendable {
    // Safe to share: the protocol and client are only used to make client calls, which each
    // platform accepts as described above; `stopped` is read and written under its lock.
    //
    // The protocol is held weakly: it holds its reply delivery, which holds this sink, until
    // it is stopped, and URLSession does not stop a protocol that finished on its own. The
    // task holds the protocol while the request is under way; once URLSession lets go of it,
    // no one listens to what the sink would say.
    private weak let urlProtocol: URLProtocol?
    private let client: any URLProtocolClient
    private let stopped = LockedFlag()
    #if !canImport(FoundationNetworking)
    private let thread = Thread.current
    private let runLoop = RunLoop.current
    private let modes: [RunLoop.Mode] = [RunLoop.current.currentMode ?? .default, .default]
    #endif

    init(urlProtocol: URLProtocol, client: any URLProtocolClient) {
        self.urlProtocol = urlProtocol
        self.client = client
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopped.value }

    /// No call reaches the client after this.
    func stop() {
        stopped.set()
    }

    func received(_ response: URLResponse) {
        perform { $0.urlProtocol($1, didReceive: response, cacheStoragePolicy: .notAllowed) }
    }

    func loaded(_ data: Data) {
        perform { $0.urlProtocol($1, didLoad: data) }
    }

    func finished() {
        perform { $0.urlProtocolDidFinishLoading($1) }
    }

    func failed(_ error: URLError) {
        perform { $0.urlProtocol($1, didFailWithError: error) }
    }

    /// Makes `call` to the client with the protocol, unless stopped or the protocol is gone.
    private func perform(_ call: @escaping @Sendable (any URLProtocolClient, URLProtocol) -> Void) {
        #if canImport(FoundationNetworking)
        callClient(call)
        #else
        if Thread.current == thread { return callClient(call) }
        runLoop.perform(inModes: modes) { [self] in callClient(call) }
        #endif
    }

    private func callClient(_ call: (any URLProtocolClient, URLProtocol) -> Void) {
        guard !isStopped, let urlProtocol else { return }
        call(client, urlProtocol)
    }
}
