import FuzzDriver
import JSONKit
import StubFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check libFuzzer runs on every input (a Postman collection's bytes): reading it either
/// refuses it with a `PostmanCollectionError` or gives stubs, auth required or not, the same
/// ones twice; every problem
/// names the file and a JSON path; every variant name is one a request header can carry; and
/// every mapping's JSON (what `petmock generate --postman` writes) reads again to the same JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPostmanReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let collection: PostmanCollection
    do {
        collection = try PostmanCollection(bytes: bytes, source: "fuzz.json")
    } catch {
        _ = error.description
        return 0
    }
    for requiringAuth in [false, true] {
        check(collection, requiringAuth: requiringAuth)
    }
    return 0
}

/// The stubs of one reading, checked.
func check(_ collection: PostmanCollection, requiringAuth: Bool) {
    let set = collection.stubs(requiringAuth: requiringAuth)
    precondition(set == collection.stubs(requiringAuth: requiringAuth), "reading twice differs")
    for problem in set.problems {
        precondition(
            problem.file == "fuzz.json" && problem.path.hasPrefix("$"), "problem without its place: \(problem)")
        _ = problem.description
    }
    for mapping in set.mappings {
        if let variant = mapping.variant {
            precondition(
                !variant.isEmpty && !variant.contains(" ") && !variant.contains(":") && !variant.contains(","),
                "variant name '\(variant)'")
        }
        let json = mapping.json
        do {
            let again = try StubMapping(json: json)
            precondition(again.json == json, "mapping JSON changes on a second decode")
        } catch {
            preconditionFailure("a mapping's JSON does not read again: \(error)\n\(json.serialized(.pretty))")
        }
    }
}

// SwiftPM makes this file's top-level code the program's entry point (libFuzzer's `main` is
// bypassed), so it starts the driver itself.
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzPostmanReader))
