import CCurl
import HTTPCore

extension HTTPClientError.Kind {
    /// The category of a libcurl transfer result.
    init(curlCode code: CURLcode) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .invalidURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .couldNotResolve
        case CURLE_COULDNT_CONNECT:
            self = .couldNotConnect
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            self = .tls
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            self = .connectionClosed
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
            self = .malformedResponse
        case CURLE_FILESIZE_EXCEEDED:
            self = .tooLarge
        case CURLE_ABORTED_BY_CALLBACK:
            self = .cancelled
        default:
            self = .other
        }
    }
}

extension HTTPClientError {
    /// The error for a failed libcurl transfer: curl's own message from its error buffer,
    /// or the generic text for the code when the buffer is empty.
    init(curlCode code: CURLcode, url: String, errorBuffer: String) {
        let generic = String(cString: ccurl_easy_strerror(code))
        let message = errorBuffer.isEmpty ? generic : errorBuffer
        // An answer that is not HTTP at all reaches libcurl as HTTP/0.9, which it refuses as
        // an unsupported protocol: that is a malformed response, not a bad URL.
        let kind: Kind =
            code == CURLE_UNSUPPORTED_PROTOCOL && message.contains("HTTP/0.9")
            ? .malformedResponse : Kind(curlCode: code)
        self.init(kind: kind, url: url, message: message, curlCode: Int(code.rawValue))
    }
}
