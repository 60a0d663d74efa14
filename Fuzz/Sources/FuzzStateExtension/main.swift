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

/// A stub root made once per process.
let root = FuzzStubRoot.make("state", files: [:])

/// The input is a piece of the state extension, placed four ways in one mapping file: as a
/// mapping's `serveEventListeners` value, as the `parameters` of a `recordState` and of a
/// `deleteState` listener, and as a request's `customMatcher`. Its text is also a template
/// the `recordState` writes and the answer renders.
func mappingFile(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var file = Array(#"{"mappings": [{"request": {"url": "/a"}, "serveEventListeners": "#.utf8)
    file += input
    file += Array(#"}, {"request": {"url": "/b"}, "serveEventListeners": [{"name": "recordState", "parameters": "#.utf8)
    file += input
    file += Array(
        #"}]}, {"request": {"url": "/c"}, "serveEventListeners": [{"name": "deleteState", "parameters": "#.utf8)
    file += input
    file += Array(#"}]}, {"request": {"url": "/d", "customMatcher": "#.utf8)
    file += input
    file += Array(
        #"""
        }}, {"request": {"urlPath": "/t"}, "response": {"body": "{{state context=request.query.c property=request.query.p default='-'}}{{#each (state context=request.query.c property='list')}}{{this}}{{/each}}{{state context=request.query.c list=request.body default='-'}}", "transformers": ["response-template"]},
         "serveEventListeners": [{"name": "recordState", "parameters": {"context": "{{request.query.c}}", "state": {"p": "{{request.body}}"}, "list": {"addLast": {"v": "{{request.body}}"}}}}]}]}
        """#.utf8)
    return file
}

let limits = StateLimits(maximumContexts: 8, maximumListEntries: 4, maximumBytes: 4096)

/// The check libFuzzer runs on every input: loading never crashes or hangs; every problem
/// names the file; a loaded mapping's JSON decodes again to the same JSON and the same state
/// listeners and matcher; serving the stubs (the input as the body, which templates read as a
/// context name and a list path) never crashes, and the store stays within its limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateExtension(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let bytes = mappingFile(input)
    let file = root + "/mappings/fuzz.json"
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot write \(file)")
    precondition(bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    close(descriptor)

    let server: StubServer
    do {
        var configuration = StubServerConfiguration(journalCapacity: 8)
        configuration.stateLimits = limits
        server = try StubServer(stubsDirectory: root, configuration: configuration)
    } catch {
        preconditionFailure("a bad mapping file must be a load problem, not a failed load: \(error)")
    }
    for problem in server.loadProblems {
        precondition(problem.file == file, "problem without its file: \(problem)")
        _ = problem.description
    }
    for mapping in server.admin.mappings() {
        let json = mapping.json
        let again: StubMapping
        do {
            again = try StubMapping(json: json)
        } catch {
            preconditionFailure("a loaded mapping's JSON does not load again: \(error)\n\(json.serialized(.pretty))")
        }
        precondition(again.json == json, "mapping JSON changes on a second decode:\n\(json.serialized(.pretty))")
        precondition(again.stateListeners == mapping.stateListeners, "state listeners change on a second decode")
        precondition(again.request.stateMatcher == mapping.request.stateMatcher, "the matcher changes")
    }
    let body = Array(input.prefix(256))
    let context = String(decoding: input.prefix(24), as: UTF8.self).percentEncoded()
    for round in 0..<6 {
        for target in ["/a", "/b", "/c", "/d", "/t?c=\(context)&p=p", "/t?c=k\(round)&p=list"] {
            let method: HTTPMethod = round % 2 == 0 ? .post : .get
            _ = server.reply(
                to: HTTPServerRequest(method: method, target: target, headers: ["Host": "localhost"], body: body))
        }
    }
    let contexts = server.admin.stateContexts()
    precondition(contexts.count <= limits.maximumContexts, "the store passed its context limit")
    precondition(contexts.allSatisfy { $0.context.list.count <= limits.maximumListEntries }, "a list passed its limit")
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStateExtension))
