import FuzzDriver
import FuzzSupport
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import MockEngine
import StubFormat
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stub root made once per process, with a body file inside `__files/` and, outside it, a
/// file that no admin file route may ever reach (by `..`, or through `__files/outside`).
let root = FuzzStubRoot.make("admin", files: ["__files/inside.txt": "inside"])

let server: StubServer = {
    let stub = StubMapping(request: RequestPattern(method: .get, url: .url("/x")), response: ResponseDefinition())
    do {
        return try StubServer(stubsDirectory: root, mappings: [stub], configuration: StubServerConfiguration(port: 0))
    } catch {
        preconditionFailure("\(error)")
    }
}()

func answer(_ method: HTTPMethod, _ target: String, _ body: [UInt8] = []) -> HTTPResponse {
    let request = HTTPServerRequest(method: method, target: target, headers: ["Host": "127.0.0.1"], body: body)
    guard let response = server.reply(to: request).response() else { preconditionFailure("no response") }
    return response
}

/// The check libFuzzer runs on every input. As a settings body (`PUT`, `PATCH`, `PATCH
/// .../extended`): never a crash or hang, only 200, 400 or 422; settings accepted read back
/// and put again are the same settings. As a body file name (read through the Swift API):
/// never the bytes of the file outside `__files/`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdminSettings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for (method, target) in [
        (HTTPMethod.put, "/__admin/settings"), (.patch, "/__admin/settings"), (.patch, "/__admin/settings/extended"),
    ] {
        server.admin.settings = GlobalSettings()
        let status = answer(method, target, bytes).status.code
        precondition([200, 400, 422].contains(status), "\(method) \(target): \(status)")
        guard status == 200 else { continue }
        let settings = server.admin.settings
        let read = answer(.get, "/__admin/settings").body
        server.admin.settings = GlobalSettings()
        precondition(answer(.put, "/__admin/settings", read).status.code == 200, "read back, refused")
        precondition(server.admin.settings == settings, "read back, changed: \(settings) \(server.admin.settings)")
    }
    if let read = try? server.admin.bodyFile(String(decoding: bytes, as: UTF8.self)) {
        precondition(read != Array(FuzzStubRoot.secret.utf8), "a body file name reached outside __files/")
    }
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzAdminSettings))
