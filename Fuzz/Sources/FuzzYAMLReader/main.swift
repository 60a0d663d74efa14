import FuzzDriver
import JSONKit
import YAMLKit

/// The check libFuzzer runs on every input: any bytes either fail with a `YAMLError` (line and
/// column inside the input) or give a JSON value that serialises to JSON the JSON parser reads
/// back to the same value (and that the YAML reader, JSON being YAML, reads the same way too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let value: JSONValue
    do {
        value = try YAMLReader().read(bytes)
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "an error without a place: \(error)")
        return 0
    }
    let json = value.serializedBytes()
    let again: JSONValue
    do {
        again = try JSONValue(parsing: json)
    } catch {
        preconditionFailure("the value does not serialise to JSON: \(error)")
    }
    precondition(again == value, "JSON round trip changed the value")
    if let asYAML = try? YAMLReader().read(json) {
        precondition(asYAML == value, "the JSON form read as YAML is another value")
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
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzYAMLReader))
