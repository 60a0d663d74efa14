import APISchema
import ContractKit
import FuzzDriver
import JSONKit

/// The check libFuzzer runs on every input (JSON or YAML bytes): a Swagger 2.0 document either
/// fails to convert with a `ContractError` or converts, the same way twice, into an OpenAPI
/// 3.0 document whose warnings all say they are Swagger 2.0's; the reader then reads it or
/// fails with a `ContractError` (never a crash), and a `swagger` document read directly gives
/// the same outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSwagger2Converter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? OpenAPIReader.document(bytes, source: "fuzz.yaml") else { return 0 }
    let converter = Swagger2Converter()
    let conversion: Swagger2Converter.Conversion
    do {
        conversion = try converter.convert(document, source: "fuzz.yaml")
    } catch {
        _ = error.description
        return 0
    }
    let again = try? converter.convert(document, source: "fuzz.yaml")
    precondition(again?.document == conversion.document, "converting twice differs")
    precondition(conversion.document["openapi"] == "3.0.3", "the converted document is not 3.0")
    precondition(conversion.warnings.allSatisfy { $0.hasPrefix("Swagger 2.0: ") }, "\(conversion.warnings)")
    let direct = Result { () throws(ContractError) in try OpenAPIReader().read(document, source: "fuzz.yaml") }
    if case .failure(let error) = direct { _ = error.description }
    if case .success(let contract) = direct {
        precondition(contract.ignoredKeywords.starts(with: conversion.warnings), "the warnings are not reported")
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
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzSwagger2Converter))
