import APISchema
import FuzzDriver
import JSONKit
import OpenAPIMock
import XMLKit

/// The check libFuzzer runs on every input, read as a schema (JSON, with its `xml` objects), a
/// newline, and a value (JSON): the value written as XML under the schema (``XMLBody``, through
/// XMLKit's writer) either fails with a reason that names a place in the value, or is a
/// document libxml2 reads back, bounded in size; never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLSerializer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 64 << 10 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let schemaText = bytes[..<newline]
    let valueText = Array(bytes[min(newline + 1, bytes.endIndex)...])
    guard let value = try? JSONValue(parsing: valueText) else { return 0 }
    let base = #"{"openapi": "3.0.3", "info": {"title": "f", "version": "1"}, "paths": {}"#
    let document = Array((base + #", "components": {"schemas": {"S": "#).utf8) + schemaText + Array("}}}".utf8)
    let schema: Schema?
    let contract: Contract
    if let read = try? OpenAPIReader().read(json: document, source: "fuzz.json") {
        contract = read
        schema = Schema.reference(toComponent: "S")
    } else {
        // A schema that does not read: the value is written by its keys alone.
        guard let plain = try? OpenAPIReader().read(json: Array((base + "}").utf8), source: "fuzz.json") else {
            return 0
        }
        contract = plain
        schema = nil
    }
    switch XMLBody.text(of: value, schema: schema, in: contract) {
    case .success(let text):
        precondition(text.utf8.count < 64 << 20, "an unbounded document")
        do {
            _ = try XMLDocument(parsing: text, limits: XMLLimits(maxBytes: 64 << 20, maxNodes: 1 << 20))
        } catch {
            preconditionFailure("the writer wrote what libxml2 refuses: \(error)\n\(text)")
        }
    case .failure(let failure):
        precondition(failure.path.hasPrefix("$") && !failure.message.isEmpty, "a failure that says nothing")
    }
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzXMLSerializer))
