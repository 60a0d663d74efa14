import COpenSSL
import HTTPServerKit

/// One server's TLS settings, made once: an OpenSSL `SSL_CTX` holding the certificate chain
/// and the private key, from which each connection's ``TLSStream`` is made.
package final class TLSContext: ConnectionLayerFactory, @unchecked Sendable {
    // Safe to share: the context is configured in `init` and only read afterwards; OpenSSL
    // makes `SSL_new` and the session cache of one `SSL_CTX` safe from several threads.
    package let context: OpaquePointer

    /// Loads the PEM certificate chain (leaf first) and its private key.
    package init(_ settings: HTTPServerTLS) throws(TLSSetupError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSSetupError.openSSL(TLSSetupError.drainedErrors())
        }
        self.context = context
        _ = petkit_ssl_ctx_set_min_tls12(context)
        // Writes go from the outbound queue, whose bytes may move between attempts and are
        // taken in part; renegotiation is refused (a client could make the loop redo the
        // handshake at will); a peer that closes without close_notify is an ordinary end.
        _ = petkit_ssl_ctx_set_mode(
            context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS)
        )
        petkit_ssl_ctx_set_server_options(context)
        _ = petkit_ssl_ctx_session_cache_server(context)
        guard SSL_CTX_use_certificate_chain_file(context, settings.certificatePath) == 1 else {
            throw TLSSetupError.unusableFile(
                path: settings.certificatePath, reason: "not a PEM certificate chain: \(TLSSetupError.drainedErrors())")
        }
        guard SSL_CTX_use_PrivateKey_file(context, settings.privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            throw TLSSetupError.unusableFile(
                path: settings.privateKeyPath, reason: "not a PEM private key: \(TLSSetupError.drainedErrors())")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSSetupError.unusableFile(
                path: settings.privateKeyPath,
                reason: "the key does not match the certificate '\(settings.certificatePath)'")
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A connection's TLS session over its socket.
    package func layer(over descriptor: Int32) -> (any ConnectionLayer)? {
        TLSStream(context: self, descriptor: descriptor)
    }
}
