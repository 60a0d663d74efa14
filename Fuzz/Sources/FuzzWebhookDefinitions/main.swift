import FuzzDriver
import FuzzSupport
import HTTPCore
import JSONKit
import MockEngine
import StubFormat
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stub root made once per process: a body file a webhook's `bodyFileName` may name inside
/// `__files/` and, outside it, a file it must never reach.
let root = FuzzStubRoot.make("webhooks", files: ["__files/callback.json": "{\"ok\": true}"])

/// The input is a webhook's definition, placed three ways in one mapping file: as a mapping's
/// `serveEventListeners` value, as the `parameters` of a `webhook` listener, and as WireMock's
/// older `postServeActions: {"webhook": ...}`.
func mappingFile(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var file = Array(#"{"mappings": [{"request": {"url": "/a"}, "serveEventListeners": "#.utf8)
    file += input
    file += Array(#"}, {"request": {"url": "/b"}, "serveEventListeners": [{"name": "webhook", "parameters": "#.utf8)
    file += input
    file += Array(#"}]}, {"request": {"url": "/c"}, "postServeActions": {"webhook": "#.utf8)
    file += input
    file += Array("}}]}".utf8)
    return file
}

/// Whether a webhook URL as loaded is one petmock may call: a template (checked when
/// rendered), or `http://`/`https://` in any case, read by bytes.
func callable(_ url: String) -> Bool {
    if ScalarText.contains(url, "{{") { return true }
    let lowered = Array(url.utf8.prefix(8).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })
    return lowered.starts(with: Array("http://".utf8)) || lowered.starts(with: Array("https://".utf8))
}

/// The check libFuzzer runs on every input: loading never crashes or hangs; every problem
/// names the file; every loaded webhook's URL is callable (or a template); a loaded mapping's
/// JSON, webhooks written by the one writer as `serveEventListeners`, decodes again to the
/// same JSON; and no `bodyFileName` reaches the file outside `__files/`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebhookDefinitions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = mappingFile(UnsafeBufferPointer(start: data, count: size))
    let file = root + "/mappings/fuzz.json"
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot write \(file)")
    precondition(bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    close(descriptor)

    let server: StubServer
    do {
        server = try StubServer(stubsDirectory: root, configuration: StubServerConfiguration(journalCapacity: 8))
    } catch {
        preconditionFailure("a bad mapping file must be a load problem, not a failed load: \(error)")
    }
    for problem in server.loadProblems {
        precondition(problem.file == file, "problem without its file: \(problem)")
        _ = problem.description
    }
    for mapping in server.admin.mappings() {
        for webhook in mapping.webhooks {
            precondition(callable(webhook.url), "a webhook loaded with the URL '\(webhook.url)'")
            if case .bytes(let body) = webhook.body {
                precondition(
                    !ScalarText.contains(String(decoding: body, as: UTF8.self), FuzzStubRoot.secret),
                    "a webhook body holds the file outside __files/")
            }
        }
        let json = mapping.json
        precondition(json.objectValue?["postServeActions"] == nil, "the writer wrote postServeActions")
        let again: StubMapping
        do {
            again = try StubMapping(json: json)
        } catch {
            preconditionFailure("a loaded mapping's JSON does not load again: \(error)\n\(json.serialized(.pretty))")
        }
        precondition(again.json == json, "mapping JSON changes on a second decode:\n\(json.serialized(.pretty))")
        precondition(again.webhooks == mapping.webhooks, "webhooks change on a second decode")
    }
    _ = server.admin.webhookCalls()
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzWebhookDefinitions))
