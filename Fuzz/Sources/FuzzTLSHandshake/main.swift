import FuzzDriver
import HTTPServerKit
import TLSKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's TLS context, made once per process from a local CA in a temporary folder.
let context: TLSContext = {
    var template = Array("/tmp/petkit-fuzz-tls.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let directory = made else { preconditionFailure("mkdtemp failed") }
    do {
        return try TLSContext(LocalCertificateAuthority(directory: directory).serverTLS())
    } catch {
        preconditionFailure("\(error)")
    }
}()

/// The check libFuzzer runs on every input, read as what a client sends to an HTTPS port before
/// it closes its side: the server's session reads it through `TLSStream`, as a connection does,
/// and ends (0, or -1 with EAGAIN or ECONNRESET) within a bounded number of reads, never
/// establishing a session (no input completes a handshake without answering the server).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSHandshake(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 64 * 1024 else { return 0 }
    var pair: [Int32] = [-1, -1]
    #if canImport(Glibc)
    let kind = Int32(SOCK_STREAM.rawValue)
    #else
    let kind = SOCK_STREAM
    #endif
    precondition(socketpair(AF_UNIX, kind, 0, &pair) == 0, "socketpair failed")
    defer {
        close(pair[0])
        close(pair[1])
    }
    var sent = 0
    while sent < size {
        let written = send(pair[0], data + sent, size - sent, 0)
        precondition(written > 0, "send failed")
        sent += written
    }
    shutdown(pair[0], Int32(SHUT_WR))
    _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
    guard let stream = TLSStream(context: context, descriptor: pair[1]) else { return 0 }
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    for _ in 0..<(size / 5 + 4) {
        let count = buffer.withUnsafeMutableBytes { stream.read($0.baseAddress, $0.count) }
        precondition(count <= 0, "read \(count) plaintext bytes with no handshake answered")
        if count == 0 { return 0 }
        if errno == EAGAIN || errno == ECONNRESET { return 0 }
        precondition(errno == EINTR, "read failed with errno \(errno)")
    }
    preconditionFailure("the session read on past every record of the input")
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzTLSHandshake))
