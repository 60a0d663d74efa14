import APISchema
import BenchSupport
import ContractKit
import Foundation
import JSONKit
import YAMLKit

// Loads a whole OpenAPI description (see bench-openapi.sh):
//   openapi-bench time FILE     best-of-N: parse alone, read into a contract, read and compile
//                               every response schema (what `verify` prepares before its first
//                               call); JSONSerialization's parse of a JSON file as the reference
//   openapi-bench memory FILE   peak RSS of one read + compile over the RSS with the bytes loaded

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: openapi-bench time|memory FILE\n".utf8))
    exit(64)
}
let path = arguments[2]
let isYAML = path.hasSuffix(".yaml") || path.hasSuffix(".yml")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("openapi-bench: \(message)\n".utf8))
    exit(2)
}

guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
let bytes = [UInt8](data)
let source = URL(fileURLWithPath: path).lastPathComponent

switch arguments[1] {
case "time":
    let runs = Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 5
    let parse = try best(of: runs) {
        if isYAML { _ = try YAMLReader(maxNodes: nil).read(bytes) } else { _ = try JSONValue(parsing: bytes) }
    }
    var contract: Contract?
    let load = try best(of: runs) { contract = try OpenAPIReader().read(bytes, source: source) }
    let prepare = try best(of: runs) {
        _ = ContractValidator(contract: try OpenAPIReader().read(bytes, source: source))
    }
    let reference = isYAML ? 0 : try best(of: runs) { _ = try JSONSerialization.jsonObject(with: data) }
    guard let contract else { fail("no contract") }
    print("bytes \(bytes.count)")
    print("operations \(contract.operations.count)")
    print("components \(contract.components.count)")
    print(String(format: "parse_ms %.1f", parse))
    print(String(format: "load_ms %.1f", load))
    print(String(format: "prepare_ms %.1f", prepare))
    if !isYAML { print(String(format: "jsonserialization_ms %.1f", reference)) }
case "memory":
    let baseline = residentKilobytes("VmRSS")
    resetPeakResidentSize()
    let validator = ContractValidator(contract: try OpenAPIReader().read(bytes, source: source))
    let peak = residentKilobytes("VmHWM")
    print("operations \(validator.contract.operations.count)")
    print("baseline_rss_kb \(baseline)")
    print("prepare_extra_peak_kb \(peak - baseline)")
default:
    fail("unknown mode '\(arguments[1])'")
}
