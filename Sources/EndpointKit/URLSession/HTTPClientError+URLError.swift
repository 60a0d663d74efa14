import Foundation
import HTTPCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPClientError.Kind {
    /// The category of a `URLError`, matching the one HTTPClient gives libcurl's equivalent.
    init(urlErrorCode code: URLError.Code) {
        switch code {
        case .badURL, .unsupportedURL:
            self = .invalidURL
        case .cannotFindHost, .dnsLookupFailed:
            self = .couldNotResolve
        case .cannotConnectToHost, .notConnectedToInternet:
            self = .couldNotConnect
        case .timedOut:
            self = .timedOut
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            self = .tls
        case .networkConnectionLost, .zeroByteResource:
            self = .connectionClosed
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            self = .malformedResponse
        case .dataLengthExceedsMaximum:
            self = .tooLarge
        case .cancelled:
            self = .cancelled
        default:
            self = .other
        }
    }
}

extension HTTPClientError {
    /// The error for a failed `URLSessionTask`: a cancellation the transfer asked for itself
    /// (its deadline) is reported as that reason.
    init(urlSessionError error: any Error, url: String, stoppedBecause stopReason: Kind?) {
        guard let urlError = error as? URLError else {
            self.init(kind: .other, url: url, message: "\(error)")
            return
        }
        var kind = Kind(urlErrorCode: urlError.code)
        if kind == .cancelled, let stopReason { kind = stopReason }
        #if canImport(FoundationNetworking)
        // FoundationNetworking runs libcurl and passes on its message, with a code that lumps
        // together what CurlTransport tells apart: an answer that is not HTTP at all reaches
        // libcurl as HTTP/0.9, which it refuses as an unsupported protocol (a malformed
        // response, not a bad URL), and a connection closed before any byte of an answer
        // ("Empty reply from server") is a closed connection, not a bad response.
        let curlMessage = urlError.localizedDescription
        if kind == .invalidURL && curlMessage.contains("HTTP/0.9") { kind = .malformedResponse }
        if kind == .malformedResponse && curlMessage.contains("Empty reply") { kind = .connectionClosed }
        #endif
        let message =
            kind == .timedOut && urlError.code == .cancelled
            ? "the request timed out" : urlError.localizedDescription
        self.init(kind: kind, url: url, message: message)
    }
}
