import Foundation
import HTTPHandlerKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPFault {
    /// The `URLError` code URLSession reports when a server answers with this fault.
    ///
    /// On Linux these are the codes FoundationNetworking (libcurl) gives over loopback, which
    /// `FaultTableTests` compares with a live server's. On Darwin they are the codes Apple's
    /// URLSession is known to give for the same wire behaviour, not verified here.
    var urlErrorCode: URLError.Code {
        #if canImport(FoundationNetworking)
        switch self {
        case .emptyResponse: .badServerResponse
        case .connectionReset: .networkConnectionLost
        // libcurl takes bytes without a status line for an HTTP/0.9 reply, which it refuses.
        case .randomDataThenClose: .unsupportedURL
        // libcurl's chunked-decoding and short-body errors have no URLError of their own.
        case .malformedResponseChunk: .unknown
        case .truncatedBody: .unknown
        }
        #else
        switch self {
        case .emptyResponse: .networkConnectionLost
        case .connectionReset: .networkConnectionLost
        case .randomDataThenClose: .cannotParseResponse
        case .malformedResponseChunk: .cannotParseResponse
        case .truncatedBody: .networkConnectionLost
        }
        #endif
    }

    /// What the platform's own transport says about it, where known.
    private var failureReason: String? {
        #if canImport(FoundationNetworking)
        switch self {
        case .emptyResponse: "Empty reply from server"
        case .connectionReset: "Recv failure: Connection reset by peer"
        case .randomDataThenClose: "Received HTTP/0.9 when not allowed"
        case .malformedResponseChunk: "Illegal or missing hexadecimal sequence in chunked-encoding"
        case .truncatedBody(let response, let keepingBytes):
            "transfer closed with \(response.body.count - min(max(0, keepingBytes), response.body.count)) bytes remaining to read"
        }
        #else
        nil
        #endif
    }

    /// This fault as the error URLSession reports for `url`.
    func urlError(for url: URL) -> URLError {
        var info: [String: Any] = [NSURLErrorFailingURLErrorKey: url]
        if let failureReason { info[NSLocalizedDescriptionKey] = failureReason }
        return URLError(urlErrorCode, userInfo: info)
    }
}
