import APISchema
import ContractKit
import FuzzDriver
import HTTPCore
import OpenAPIMock

/// The check libFuzzer runs on every input: a document that reads is checked at load
/// (``GenerationCheck``) and each of its first operations is answered, fixed and dynamic, by
/// the responder; every answer is a bounded body (a generated one, or a 500 refusal naming the
/// schema), never a crash, and never unbounded work (libFuzzer's `-timeout` catches that).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPIGeneration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 64 << 10 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let contract = try? OpenAPIReader().read(bytes, source: "fuzz.json") else { return 0 }
    let problems = GenerationCheck.problems(in: contract)
    for problem in problems {
        precondition(problem.pointer.hasPrefix("#/paths/"), "a problem without its schema's pointer: \(problem)")
    }
    let responder = OpenAPIResponder(contract: contract, basePath: "/")
    for operation in contract.operations.prefix(16) {
        let path = operation.path.replacing("{", with: "x").replacing("}", with: "")
        for prefer in [nil, "dynamic=true, seed=7"] as [String?] {
            var headers = HTTPHeaders()
            if let prefer { headers.add(name: "Prefer", value: prefer) }
            guard let answer = responder.answer(method: operation.method, path: path, headers: headers) else {
                continue
            }
            precondition(answer.response.body.count < 8 << 20, "an unbounded body for \(operation.name)")
        }
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
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzOpenAPIGeneration))
