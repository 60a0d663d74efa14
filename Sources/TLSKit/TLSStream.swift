import COpenSSL
import HTTPServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection's TLS session over its non-blocking socket, confined to the connection's
/// loop. `read` and `write` answer as `read(2)` and `send(2)` do (a count, 0 at the end, or -1
/// with `errno`: `EAGAIN` when OpenSSL waits for the socket, `ECONNRESET` when the session
/// failed), so the connection's code around them is the plain socket's. The handshake happens
/// inside the first reads.
package final class TLSStream: ConnectionLayer {
    private let session: OpaquePointer

    /// Nil when OpenSSL cannot make the session (out of memory): the loop then resets the
    /// connection rather than serve it as plain HTTP.
    package init?(context: TLSContext, descriptor: Int32) {
        guard let session = SSL_new(context.context) else {
            // Left on the thread's error queue, the reason would be read as the next failure's.
            ERR_clear_error()
            return nil
        }
        guard SSL_set_fd(session, descriptor) == 1 else {
            SSL_free(session)
            ERR_clear_error()
            return nil
        }
        self.session = session
        SSL_set_accept_state(session)
    }

    deinit {
        SSL_free(session)
    }

    /// Whether the handshake is done.
    package var isEstablished: Bool { SSL_is_init_finished(session) == 1 }

    /// Reads decrypted bytes (running the handshake first, when it is not done).
    package func read(_ target: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        let result = SSL_read(session, target, Int32(clamping: count))
        if result > 0 { return Int(result) }
        return failure(of: result)
    }

    /// Encrypts and sends bytes; with partial writes on, a count below `count` is a short write.
    package func write(_ source: UnsafeRawPointer?, _ count: Int) -> Int {
        let result = SSL_write(session, source, Int32(clamping: count))
        if result > 0 { return Int(result) }
        return failure(of: result)
    }

    /// Sends close_notify once, before the socket's write side is shut.
    package func close() {
        if isEstablished { _ = SSL_shutdown(session) }
        ERR_clear_error()
    }

    private func failure(of result: Int32) -> Int {
        switch SSL_get_error(session, result) {
        case SSL_ERROR_ZERO_RETURN:
            return 0
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            errno = EAGAIN
            return -1
        case SSL_ERROR_SYSCALL where errno == EINTR:
            ERR_clear_error()
            return -1
        default:
            // A handshake that is not TLS, a bad record, a reset: the session is over. The
            // thread's error queue is emptied so that the next connection's calls read their own.
            ERR_clear_error()
            errno = ECONNRESET
            return -1
        }
    }
}
