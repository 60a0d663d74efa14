import Foundation
import HTTPServerKit
import Platform
import StubFormat
import StubServerKit
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif

/// StubServer on HTTPS, reached by a URLSession whose delegate trusts the local CA.
@Suite struct StubServerHTTPSTests {
    static func server(in folder: TemporaryDirectory, plainToo: Bool) throws -> StubServer {
        let mapping = try StubMapping(
            json: #"{"request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "body": "hi"}}"#)
        var configuration = StubServerConfiguration(port: 0, eventLoopCount: 1)
        configuration.httpsPort = 0
        configuration.servesPlainHTTP = plainToo
        configuration.certificateAuthority = LocalCertificateAuthority(directory: folder.path)
        return try StubServer(mappings: [mapping], configuration: configuration)
    }

    @Test func httpsAloneIsTheBaseURLAndNamesLocalhost() throws {
        let folder = try TemporaryDirectory(prefix: "petkit-stub-https")
        defer { folder.remove() }
        let server = try Self.server(in: folder, plainToo: false)
        try server.start()
        defer { server.stop() }
        let port = try #require(server.httpsPort)
        #expect(port > 0)
        #expect(server.httpsBaseURL == "https://localhost:\(port)")
        #expect(server.baseURL == server.httpsBaseURL)
        #expect(server.port == port)
    }

    @Test func bothPortsAnswerAndStopTogether() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-stub-https")
        defer { folder.remove() }
        let server = try Self.server(in: folder, plainToo: true)
        try server.start()
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        let (data, _) = try await URLSession(configuration: .ephemeral).data(
            from: try #require(URL(string: server.baseURL + "/hello")))
        #expect(String(decoding: data, as: UTF8.self) == "hi")
        let httpsPort = try #require(server.httpsPort)
        server.stop()
        // Both listeners are gone once stop returns.
        #expect(throws: RawClientError.self) { _ = try RawClient(port: server.port) }
        #expect(throws: RawClientError.self) { _ = try RawClient(port: httpsPort) }
    }

    @Test func aURLSessionDelegateTrustingTheCAReachesTheServer() async throws {
        let folder = try TemporaryDirectory(prefix: "petkit-stub-https")
        defer { folder.remove() }
        let server = try Self.server(in: folder, plainToo: false)
        try server.start()
        defer { server.stop() }
        let delegate = try AnchorDelegate(caPEMFile: folder.file("ca.pem"))
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let url = try #require(URL(string: (server.httpsBaseURL ?? "") + "/hello"))
        #if canImport(Security)
        let (data, response) = try await session.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "hi")
        #expect(delegate.serverTrustChallenges > 0)
        #else
        // FoundationNetworking (libcurl) verifies against the system's CA store only: it never
        // asks the delegate about server trust, and reads no CA file of the app's off Android.
        // The request is refused as untrusted, which is what docs/petmock.md says of Linux.
        do {
            _ = try await session.data(from: url)
            Issue.record("FoundationNetworking trusted the local CA without being told to")
        } catch let error as URLError {
            // libcurl's "peer certificate not OK" (60) arrives as `.unknown`, not a TLS code.
            #expect(error.code != .cancelled && error.code != .timedOut, "\(error)")
        }
        #expect(delegate.serverTrustChallenges == 0)
        #endif
    }
}

/// Trusts the server when its chain leads to the given CA (and only then), as an app's UI test
/// does for petmock's local CA; counts the server-trust challenges it was asked.
final class AnchorDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let anchor: [UInt8]
    private let challenges = Locked(0)

    var serverTrustChallenges: Int { challenges.withLock { $0 } }

    /// Reads the CA's certificate (PEM) as DER.
    init(caPEMFile path: String) throws {
        let pem = try String(contentsOfFile: path, encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        anchor = [UInt8](Data(base64Encoded: body) ?? Data())
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        challenges.withLock { $0 += 1 }
        guard let trust = challenge.protectionSpace.serverTrust,
            let certificate = SecCertificateCreateWithData(nil, Data(anchor) as CFData)
        else {
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        SecTrustSetAnchorCertificates(trust, [certificate] as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, true)
        guard SecTrustEvaluateWithError(trust, nil) else {
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
        #else
        // swift-corelibs-foundation has no server-trust method: any challenge at all is counted.
        challenges.withLock { $0 += 1 }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #endif
    }
}
