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

func residentKilobytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ").dropFirst().first.map(String.init) ?? "") ?? 0
    }
    return 0
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()  // warm-up
    var best = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        best = min(best, milliseconds(ContinuousClock.now - start))
    }
    return best
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
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let validator = ContractValidator(contract: try OpenAPIReader().read(bytes, source: source))
    let peak = residentKilobytes("VmHWM")
    print("operations \(validator.contract.operations.count)")
    print("baseline_rss_kb \(baseline)")
    print("prepare_extra_peak_kb \(peak - baseline)")
default:
    fail("unknown mode '\(arguments[1])'")
}
