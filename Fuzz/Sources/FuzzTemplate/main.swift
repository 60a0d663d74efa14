import FuzzDriver
import HTTPCore
import Templating

/// The check libFuzzer runs on every input, read as a template, a newline, and a request
/// body: compiling never crashes and refuses with a position inside the template; a template
/// that compiles renders (or stops at a bound) without crashing, within the output limit, and
/// compiles to the same output twice over (rendering is a function of template and request,
/// the clock fixed, once no random helper is used).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let source = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Array(bytes[min(newline + 1, bytes.endIndex)...])
    let limits = TemplateLimits(
        maximumSourceLength: 4096, maximumDepth: 16, maximumOutputLength: 65536, maximumIterations: 2000)
    let template: Template
    do {
        template = try Template(source, limits: limits)
    } catch {
        if let position = error.position {
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            precondition(position.line >= 1 && position.line <= lines.count, "line outside the template: \(error)")
            precondition(position.column >= 1, "column before the line: \(error)")
        }
        precondition(!error.message.isEmpty, "an error without a message")
        return 0
    }
    let request = TemplateRequest(
        method: "POST", url: "/fuzz/a/b?x=1&x=2&y=%7B", headers: ["Content-Type": "application/json", "X-A": "a"],
        body: body, baseURL: "http://localhost:8080", pathParameters: ["id": "b"], clientIP: "127.0.0.1")
    let context = TemplateValue.object([("request", .node(request)), ("parameters", .json(["p": "q"]))])
    let first: String
    do {
        first = try template.render(context, clock: .fixed(wallNanoseconds: 1_700_000_000_000_000_000))
    } catch {
        precondition(error.stopsRender, "a render error that does not stop the render escaped: \(error)")
        return 0
    }
    precondition(first.utf8.count <= limits.maximumOutputLength, "the output passed its limit")
    let random = ["random", "pickRandom", "request.id", "uuid", "UUID"].contains { source.contains($0) }
    if !random, let second = try? template.render(context, clock: .fixed(wallNanoseconds: 1_700_000_000_000_000_000)) {
        precondition(first == second, "two renders of '\(source)' differ")
    }
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzTemplate))
