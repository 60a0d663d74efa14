import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls an event loop makes, with each system's way of doing them: `accept4` on
/// Linux, `accept` and `fcntl` elsewhere; `MSG_NOSIGNAL` on each send where it exists,
/// `SO_NOSIGPIPE` on the socket where it does not.
package enum Socket {
    /// Flags for `send`/`sendmsg` on a connection: a peer that has gone away gives `EPIPE`,
    /// not `SIGPIPE` (0 where ``prepareConnection(_:)`` sets `SO_NOSIGPIPE` instead).
    package static let sendFlags: Int32 = CSYSTEM_MSG_NOSIGNAL

    /// Accepts one waiting connection from `listener`, non-blocking and close-on-exec, and
    /// stores the peer's address; returns the descriptor, or -1 with `errno` set.
    package static func acceptConnection(_ listener: Int32, peer: inout sockaddr_storage) -> Int32 {
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &peer) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                #if os(Linux)
                return csystem_accept4(listener, address, &length, CSYSTEM_SOCK_NONBLOCK | CSYSTEM_SOCK_CLOEXEC)
                #else
                let descriptor = accept(listener, address, &length)
                guard descriptor >= 0 else { return -1 }
                guard Descriptor.makeNonBlockingAndCloseOnExec(descriptor) else {
                    let error = errno
                    Descriptor.close(descriptor)
                    errno = error
                    return -1
                }
                return descriptor
                #endif
            }
        }
    }

    /// Sets what every accepted connection gets: `TCP_NODELAY` (responses are written whole),
    /// and `SO_NOSIGPIPE` where `MSG_NOSIGNAL` does not exist.
    package static func prepareConnection(_ descriptor: Int32) {
        var on: Int32 = 1
        setsockopt(descriptor, CSYSTEM_IPPROTO_TCP, CSYSTEM_TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if !os(Linux)
        setsockopt(descriptor, SOL_SOCKET, CSYSTEM_SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Makes the next close of `descriptor` send a reset (`SO_LINGER` with 0 seconds).
    package static func resetOnClose(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Opens a blocking, close-on-exec TCP socket of `family` (`AF_INET`, `AF_INET6`) that
    /// never raises `SIGPIPE` when sent to with ``sendFlags``; -1 with `errno` on failure.
    package static func openStream(family: Int32) -> Int32 {
        let descriptor = socket(family, CSYSTEM_SOCK_STREAM | CSYSTEM_SOCK_CLOEXEC, 0)
        #if !os(Linux)
        if descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, CSYSTEM_SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        return descriptor
    }

    /// Sends the first `count` buffers of `vectors` in one `sendmsg` (one `send` for a single
    /// buffer), without blocking or `SIGPIPE`; returns what the call returned.
    @inlinable
    package static func send(_ descriptor: Int32, vectors: UnsafeMutablePointer<iovec>, count: Int) -> Int {
        if count == 1 {
            return systemSend(descriptor, vectors[0].iov_base, vectors[0].iov_len, CSYSTEM_MSG_NOSIGNAL)
        }
        var message = msghdr()
        message.msg_iov = vectors
        #if canImport(Darwin)
        message.msg_iovlen = Int32(count)
        #else
        message.msg_iovlen = count
        #endif
        return sendmsg(descriptor, &message, CSYSTEM_MSG_NOSIGNAL)
    }

    /// Sends `bytes` once, without blocking or `SIGPIPE`; returns what `send` returned.
    @inlinable
    @discardableResult
    package static func sendOnce(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        systemSend(descriptor, bytes.baseAddress, bytes.count, CSYSTEM_MSG_NOSIGNAL)
    }

    /// Ends the sending side of a connection (`shutdown(SHUT_WR)`): the peer reads the end of
    /// the stream while this side can still read. Returns 0, or -1 with `errno`.
    @inlinable
    @discardableResult
    package static func shutdownWrite(_ descriptor: Int32) -> Int32 {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Whether the peer has sent bytes not read yet: a one-byte `MSG_PEEK` that does not block
    /// and consumes nothing.
    @inlinable
    package static func hasUnreadInput(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }
}

/// `send(2)`, callable where a method named `send` hides it.
@inlinable
func systemSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, buffer, count, flags)
}
