import FuzzDriver
import JSONKit

/// The check libFuzzer runs on every input: any bytes either fail to parse with a `JSONParseError` or parse to
/// a value that the writer serialises back to the same value, in every layout, and whose
/// error positions lie inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = JSONParser(maxDepth: 64)
    let value: JSONValue
    do {
        value = try parser.parse(bytes)
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) outside 0...\(size)")
        precondition(error.line >= 1 && error.column >= 1, "error position line \(error.line) column \(error.column)")
        _ = error.description
        return 0
    }
    for options in [JSONWriteOptions(), .pretty, [.pretty, .escapeSlashes]] {
        let written = JSONWriter(options: options).bytes(value)
        let reread: JSONValue
        do {
            reread = try parser.parse(written)
        } catch {
            preconditionFailure("written JSON does not parse again: \(error)")
        }
        precondition(reread == value, "written JSON parses to a different value")
    }
    let sorted = JSONWriter(options: .sortedKeys).bytes(value)
    do {
        _ = try parser.parse(sorted)
    } catch {
        preconditionFailure("sorted JSON does not parse again: \(error)")
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
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzJSONParser))
