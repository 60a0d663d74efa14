import APISchema
import BenchSupport
import ContractKit
import Foundation
import JSONKit
import PetAppContract

// Benchmarks the contract check of a large body (see bench-contract.sh):
//   contract-bench prepare DIR      writes DIR/pets-50000.json and DIR/pets.schema.json
//   contract-bench time DIR         best-of-N times: our check, with decoding, and JSONSerialization
//   contract-bench memory DIR       extra peak RSS of one check over the RSS with the body loaded

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: contract-bench prepare|time|memory DIR\n".utf8))
    exit(64)
}
let directory = arguments[2]
let bodyPath = directory + "/pets-50000.json"
let schemaPath = directory + "/pets.schema.json"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("contract-bench: \(message)\n".utf8))
    exit(2)
}

func makeBody(count: Int, drifted: Bool = false) -> [UInt8] {
    let firstNames = ["Rex", "Bella", "Milo", "Luna", "Charlie", "Daisy", "Max", "Coco", "Buddy", "Nala"]
    let lastNames = ["Smith", "Jones", "Garcia", "Chen", "Okafor", "Haddad", "Lee", "Novak", "Silva", "Kim"]
    var pets: [JSONValue] = []
    pets.reserveCapacity(count)
    for index in 0..<count {
        pets.append([
            "firstName": .string(firstNames[index % 10] + " \(index)"),
            "lastName": .string(lastNames[(index / 10) % 10]),
            "vetId": drifted ? .string(String(index % 50 + 1)) : .int(Int64(index % 50 + 1)),
        ])
    }
    return JSONValue.array(pets).serializedBytes()
}

/// The contract's `GET /pets` schema as a standalone JSON Schema: components under `$defs`.
func standaloneSchema(_ contract: Contract) -> String {
    guard let response = contract.operation(named: "GET /pets")?.response(for: 200), let schema = response.schema else {
        fail("the contract has no GET /pets 200 schema")
    }
    var document = OpenAPIWriter().schema(schema).objectValue ?? JSONObject()
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    document["$defs"] = .object(JSONObject(contract.components.map { ($0.name, OpenAPIWriter().schema($0.schema)) }))
    return JSONValue.object(document).serialized(.pretty).replacing("#/components/schemas/", with: "#/$defs/")
}

let (contract, models) = try PetApp.contract.make()
guard let operation = contract.operation(named: "GET /pets") else { fail("no GET /pets") }

switch arguments[1] {
case "prepare":
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Data(makeBody(count: 50_000)).write(to: URL(fileURLWithPath: bodyPath))
    try Data(standaloneSchema(contract).utf8).write(to: URL(fileURLWithPath: schemaPath))
    print("wrote \(bodyPath) and \(schemaPath)")
case "time":
    guard let data = FileManager.default.contents(atPath: bodyPath) else { fail("run prepare first") }
    let body = [UInt8](data)
    let response = ObservedResponse(url: "bench", status: 200, body: body)
    let schemaOnly = ContractValidator(contract: contract)
    let withDecoding = ContractValidator(contract: contract, models: models)
    var findings = 0
    let validate = best(of: 10) { findings = schemaOnly.validate(response, for: operation).findings.count }
    let decode = best(of: 10) { _ = withDecoding.validate(response, for: operation) }
    let parse = try best(of: 10) { _ = try JSONValue(parsing: body) }
    // Every pet's vetId a string: 50,000 occurrences collapsed into one finding.
    let drifted = ObservedResponse(url: "bench", status: 200, body: makeBody(count: 50_000, drifted: true))
    var driftedFindings = 0
    let driftedValidate = best(of: 10) { driftedFindings = schemaOnly.validate(drifted, for: operation).findings.count }
    let foundation = try best(of: 10) { _ = try JSONSerialization.jsonObject(with: data) }
    print("bytes \(body.count)")
    print("findings \(findings)")
    print(String(format: "ours_validate_ms %.2f", validate))
    print(String(format: "ours_validate_decode_ms %.2f", decode))
    print(String(format: "ours_parse_ms %.2f", parse))
    print(String(format: "ours_validate_drifted_ms %.2f", driftedValidate))
    print("drifted_findings \(driftedFindings)")
    print(String(format: "jsonserialization_parse_ms %.2f", foundation))
case "memory":
    guard let data = FileManager.default.contents(atPath: bodyPath) else { fail("run prepare first") }
    let body = [UInt8](data)
    let response = ObservedResponse(url: "bench", status: 200, body: body)
    let validator = ContractValidator(contract: contract, models: models)
    // Each check runs alone with its result dropped after it; the peak (VmHWM) is reset to the
    // current RSS before each, so a peak is that check's alone.
    func extraPeak(_ check: () -> Int) -> (kilobytes: Int, findings: Int) {
        let baseline = residentKilobytes("VmRSS")
        resetPeakResidentSize()
        let findings = check()
        return (residentKilobytes("VmHWM") - baseline, findings)
    }
    let baseline = residentKilobytes("VmRSS")
    let schemaOnly = extraPeak {
        ContractValidator(contract: contract).validate(response, for: operation).findings.count
    }
    let full = extraPeak { validator.validate(response, for: operation).findings.count }
    print("bytes \(body.count)")
    print("findings \(schemaOnly.findings + full.findings)")
    print("baseline_rss_kb \(baseline)")
    print("validate_extra_peak_kb \(schemaOnly.kilobytes)")
    print("validate_decode_extra_peak_kb \(full.kilobytes)")
default:
    fail("unknown mode '\(arguments[1])'")
}
