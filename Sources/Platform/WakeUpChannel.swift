import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A descriptor another thread (or a signal handler) makes readable to wake a thread blocked
/// in a poller: an eventfd on Linux, a pipe elsewhere or when asked. Signals are counted, not
/// queued: one ``drain()`` consumes every signal so far.
package final class WakeUpChannel: @unchecked Sendable {
    // Safe to share: both descriptors are set in init and never change; the calls on them are
    // thread-safe system calls.
    /// The descriptor to watch for readability.
    package let readDescriptor: Int32
    /// The descriptor ``signal()`` writes 8 bytes to (the same as ``readDescriptor`` for an
    /// eventfd); a signal handler may write to it directly.
    package let writeDescriptor: Int32

    /// What a channel is made of.
    package enum Mechanism: Sendable, Hashable, CaseIterable {
        /// The system's best: an eventfd on Linux, a pipe elsewhere.
        case automatic
        /// A pipe, as on systems without eventfd: what the portable back ends use everywhere,
        /// so that running them on Linux runs the code macOS runs.
        case pipe
    }

    /// Opens the channel, both ends non-blocking and close-on-exec.
    package init(_ mechanism: Mechanism = .automatic) throws(PlatformError) {
        #if os(Linux)
        if mechanism == .automatic {
            let descriptor = eventfd(0, CSYSTEM_EFD_NONBLOCK | CSYSTEM_EFD_CLOEXEC)
            guard descriptor >= 0 else { throw PlatformError.lastError("eventfd") }
            readDescriptor = descriptor
            writeDescriptor = descriptor
            return
        }
        #endif
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PlatformError.lastError("pipe") }
        guard Descriptor.makeNonBlockingAndCloseOnExec(ends[0]), Descriptor.makeNonBlockingAndCloseOnExec(ends[1])
        else {
            let error = PlatformError.lastError("fcntl")
            Descriptor.close(ends[0])
            Descriptor.close(ends[1])
            throw error
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    /// Makes ``readDescriptor`` readable; callable from any thread.
    package func signal() {
        var one: UInt64 = 1
        _ = Descriptor.write(writeDescriptor, &one, 8)
    }

    /// Consumes every pending signal (a bounded number of reads: a full pipe holds at most
    /// its buffer's worth).
    package func drain() {
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        for _ in 0..<1024 {
            let count = withUnsafeMutableBytes(of: &buffer) {
                Descriptor.read(readDescriptor, $0.baseAddress, $0.count)
            }
            // An eventfd hands over its whole counter in one 8-byte read.
            if count <= 0 || readDescriptor == writeDescriptor { return }
        }
    }

    /// Closes both ends.
    package func close() {
        Descriptor.close(readDescriptor)
        if writeDescriptor != readDescriptor { Descriptor.close(writeDescriptor) }
    }
}
