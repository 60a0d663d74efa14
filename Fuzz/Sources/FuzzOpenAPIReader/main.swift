import APISchema
import ContractKit
import FuzzDriver
import JSONKit

/// The check libFuzzer runs on every input: any bytes either fail with a `ContractError` or read into a contract
/// that the writer turns into a document the reader accepts again, and that reads back to the
/// same contract (write, read, write is stable).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPIReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let reader = OpenAPIReader()
    let contract: Contract
    do {
        contract = try reader.read(bytes, source: "fuzz.json")
    } catch {
        _ = error.description
        return 0
    }
    let writer = OpenAPIWriter()
    let text = writer.text(contract)
    let again: Contract
    do {
        again = try reader.read(Array(text.utf8), source: "written.json")
    } catch {
        preconditionFailure("the writer's document does not read again: \(error)\n\(text)")
    }
    precondition(writer.text(again) == text, "write, read, write is not stable:\n\(text)\n\(writer.text(again))")
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// SwiftPM makes this file's top-level code the program's entry point (libFuzzer's `main` is
// bypassed), so it starts the driver itself.
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzOpenAPIReader))
