import FuzzDriver
import HTTPClient
import HTTPCore

/// Small limits, so that every limit check is within reach of short inputs.
let limits: HTTPResponseReader.Limits = {
    var limits = HTTPResponseReader.Limits()
    limits.headBytes = 256
    limits.fields = 8
    limits.lineBytes = 32
    return limits
}()

/// What a reader made of a whole input: the head and body once complete, or the error.
struct Outcome: Equatable {
    var head: HTTPResponseReader.Head?
    var body: [UInt8] = []
    var complete = false
    var error: HTTPResponseError?
}

/// Feeds `bytes` to a fresh reader (for a GET, or a HEAD when the first byte is odd) in pieces
/// of `size` bytes (0: whole), then the end of the stream.
func feed(_ bytes: [UInt8], piece size: Int, head: Bool) -> Outcome {
    var reader = HTTPResponseReader(method: head ? .head : .get, maxBodySize: 512, limits: limits)
    var outcome = Outcome()
    let step = size == 0 ? max(1, bytes.count) : size
    do {
        for start in stride(from: 0, to: bytes.count, by: step) {
            let piece = bytes[start..<min(bytes.count, start + step)]
            let result = piece.withUnsafeBytes { raw in
                Result { () throws(HTTPResponseError) in try reader.read(raw) }
            }
            outcome.complete = try result.get()
            precondition(reader.body.count <= 512, "the body outgrew its limit")
        }
        outcome.complete = try reader.readEnd()
    } catch {
        // What came before the error (a piece that completed the response) does not count.
        outcome.complete = false
        outcome.error = error
        _ = error.description
        return outcome
    }
    precondition(outcome.complete == reader.isComplete, "complete twice over")
    outcome.head = reader.head
    outcome.body = reader.body
    return outcome
}

/// The check libFuzzer runs on every input: the bytes at once, one at a time, and in pieces of an
/// input-derived size must read the same (the same head and body, or the same error).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponseReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let head = (bytes.first ?? 0) & 1 == 1
    let whole = feed(bytes, piece: 0, head: head)
    let single = feed(bytes, piece: 1, head: head)
    if whole != single { fatalError("one byte at a time differs:\n\(whole)\n\(single)") }
    let cut = bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % 13 + 2
    let pieces = feed(bytes, piece: cut, head: head)
    if whole != pieces { fatalError("pieces of \(cut) differ:\n\(whole)\n\(pieces)") }
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// SwiftPM makes this file's top-level code the program's entry point (libFuzzer's `main` is
// bypassed), so it starts the driver itself.
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzHTTPResponseReader))
