import FuzzDriver
import HTTPCore
import HTTPServerKit

/// Small limits, so that every limit check is within reach of short inputs.
let limits = HTTPParserLimits(maxRequestLineLength: 64, maxHeaderSize: 256, maxBodySize: 1024, maxChunkLineLength: 32)

/// What a parser made of a whole input: its events (adjacent body pieces merged, so the way
/// the input was cut does not show) and the error that stopped it, if any.
struct Outcome: Equatable {
    var outputs: [HTTPRequestParser.Output] = []
    var error: HTTPParserError?

    mutating func add(_ output: HTTPRequestParser.Output) {
        if case .body(let more) = output, case .body(let before)? = outputs.last {
            outputs[outputs.count - 1] = .body(before + more)
        } else {
            outputs.append(output)
        }
    }
}

/// Feeds `bytes` to a fresh parser in pieces of the given sizes (the last piece takes the rest),
/// checking the parser's promises about `consumed` and body ranges on every step.
func feed(_ bytes: [UInt8], pieces sizes: [Int]) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    var start = 0
    var sizeIndex = 0
    while start < bytes.count {
        let size = sizeIndex < sizes.count ? sizes[sizeIndex] : bytes.count - start
        sizeIndex += 1
        let piece = Array(bytes[start..<min(bytes.count, start + max(1, size))])
        start += piece.count
        var offset = 0
        while true {
            let begin = offset
            let result = piece.withUnsafeBytes { raw in
                Result { () throws(HTTPParserError) in
                    try parser.parse(UnsafeRawBufferPointer(rebasing: raw[begin...]))
                }
            }
            let step: HTTPRequestParser.Step
            do {
                step = try result.get()
            } catch {
                outcome.error = error
                return outcome
            }
            precondition(step.consumed >= 0 && begin + step.consumed <= piece.count, "consumed out of range")
            switch step.event {
            case nil:
                precondition(begin + step.consumed == piece.count, "no event but input left unconsumed")
                offset = piece.count
            case .head(let parsed):
                _ = parsed.head.path
                _ = parsed.head.query.map { QueryParameters.parse($0) }
                _ = parsed.head.originForm
                _ = parsed.head.path.removingPercentEncoding()
                outcome.add(.head(parsed))
            case .body(let range):
                precondition(range.lowerBound >= 0 && range.upperBound <= step.consumed, "body range out of step")
                outcome.add(.body(Array(piece[(begin + range.lowerBound)..<(begin + range.upperBound)])))
            case .end:
                outcome.add(.end)
            }
            offset = begin + step.consumed
            if step.event == nil { break }
        }
        precondition(!parser.isIdle || !parser.isReadingHead, "idle and reading a head at once")
    }
    return outcome
}

/// The check libFuzzer runs on every input: the bytes fed at once, one byte at a time, and in pieces of an
/// input-derived size must give the same events and the same error; and after an error the
/// parser must keep failing with it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = feed(bytes, pieces: [])
    let single = feed(bytes, pieces: Array(repeating: 1, count: bytes.count))
    precondition(whole == single, "one byte at a time differs:\n\(whole)\n\(single)")
    let cut = bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } % 13 + 2
    let pieces = feed(bytes, pieces: Array(repeating: cut, count: bytes.count / cut + 1))
    precondition(whole == pieces, "pieces of \(cut) differ:\n\(whole)\n\(pieces)")
    if let error = whole.error {
        _ = error.description
        _ = error.status
    }
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// SwiftPM makes this file's top-level code the program's entry point (libFuzzer's `main` is
// bypassed), so it starts the driver itself.
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzHTTPRequestParser))
