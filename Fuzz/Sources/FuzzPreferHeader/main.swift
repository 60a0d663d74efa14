import FuzzDriver
import FuzzSupport
import HTTPCore
import HTTPHandlerKit
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stub root made once per process: `GET /x` answers 200 with a JSON body, 404 at a lower
/// priority, and a file variant named `empty`.
let root = FuzzStubRoot.make(
    "prefer",
    files: [
        "mappings/x.json": """
        {"mappings": [
          {"request": {"method": "GET", "url": "/x"}, "response": {"status": 200, "jsonBody": {"id": 1, "name": "a"}}},
          {"priority": 9, "request": {"method": "GET", "url": "/x"}, "response": {"status": 404}},
          {"request": {"method": "GET", "url": "/x"}, "response": {"status": 200, "body": ""},
           "metadata": {"variant": "empty"}}
        ]}
        """
    ])

let server: StubServer = {
    do {
        return try StubServer(stubsDirectory: root, configuration: StubServerConfiguration(port: 0, journalCapacity: 8))
    } catch {
        preconditionFailure("\(error)")
    }
}()

/// The check libFuzzer runs on every input, read as the value of a `Prefer` field (bytes a
/// request head cannot carry, CR, LF and NUL, become spaces): petmock answers it with the stub
/// (200), the status stub it names (404), a generated variant it names (`example=reset`), or
/// a 400 that says why, never a crash or a hang; and
/// a value whose one preference is `code=404` (parameters after `;` set aside) gets the 404 stub.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreferHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size).map { byte in
        byte == 0 || byte == 10 || byte == 13 ? UInt8(ascii: " ") : byte
    }
    let value = String(decoding: bytes, as: UTF8.self)
    let request = HTTPServerRequest(
        method: .get, target: "/x", headers: ["Host": "127.0.0.1", "Prefer": value], body: [])
    // `example=NAME` names any variant, the generated ones too: a fault (`example=reset`), an
    // error page (`example=html-error`), a cut body; those may answer anything.
    let lowered = value.lowercased()
    let generated = ["reset", "truncated", "empty", "slow", "html-error"].contains {
        ScalarText.contains(lowered, $0)
    }
    guard let response = server.reply(to: request).response() else {
        precondition(generated, "Prefer '\(value)': no response")
        return 0
    }
    let status = response.status.code
    precondition(generated || [200, 400, 404].contains(status), "Prefer '\(value)': status \(status)")
    if value == "code=404" || (ScalarText.hasPrefix(value, "code=404;") && !ScalarText.contains(value, ",")) {
        precondition(status == 404, "Prefer '\(value)' answered \(status)")
    }
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzPreferHeader))
