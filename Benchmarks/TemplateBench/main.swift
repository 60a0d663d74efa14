import Foundation
import HTTPCore
// The CPU cost of a templated stub's answer against the same bytes served plain, in process
// (no socket, so the machine's load weighs far less than on bench-petmock's wrk figure): the
// stubs of bench-petmock's templating pair, plus the same template as a body file, answered
// through `StubServer.reply(to:)`, each timed in thread CPU time, best of the rounds.
// Usage: template-bench [REQUESTS-PER-ROUND] [ROUNDS]; TEMPLATE_BENCH_ONLY=plain|templated|file
// measures one figure alone.
import HTTPHandlerKit
import HTTPServerKit
import MockEngine
import StubServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let requests = arguments.first.flatMap { Int($0) } ?? 50_000
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 5
guard requests > 0, rounds > 0 else {
    FileHandle.standardError.write(Data("usage: template-bench [REQUESTS-PER-ROUND] [ROUNDS]\n".utf8))
    exit(64)
}

let template =
    #"{\"id\":\"{{request.path.[2]}}\",\"q\":\"{{request.query.q}}\",\"name\":\"{{jsonPath request.query.filter '$.name'}}\"}"#
let mappings = """
    {"mappings": [
      {"request": {"method": "GET", "urlPathPattern": "/api/templated/[0-9]+"},
       "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                    "body": "\(template)", "transformers": ["response-template"]}},
      {"request": {"method": "GET", "urlPathPattern": "/api/file/[0-9]+"},
       "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                    "bodyFileName": "{{request.path.[1]}}.json", "transformers": ["response-template"]}},
      {"request": {"method": "GET", "urlPathPattern": "/api/plain/[0-9]+"},
       "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                    "body": "{\\"id\\":\\"42\\",\\"q\\":\\"x\\",\\"name\\":\\"Rex\\"}"}}
    ]}
    """
let folder = NSTemporaryDirectory() + "template-bench-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: folder) }
do {
    try FileManager.default.createDirectory(atPath: folder + "/mappings", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder + "/__files", withIntermediateDirectories: true)
    try Data(mappings.utf8).write(to: URL(fileURLWithPath: folder + "/mappings/template.json"))
    let fileTemplate = template.replacingOccurrences(of: #"\""#, with: #"""#)
    try Data(fileTemplate.utf8).write(to: URL(fileURLWithPath: folder + "/__files/file.json"))
} catch {
    FileHandle.standardError.write(Data("template-bench: \(error)\n".utf8))
    exit(2)
}

let server: StubServer
do {
    server = try StubServer(stubsDirectory: folder, configuration: StubServerConfiguration(strict: true))
} catch {
    FileHandle.standardError.write(Data("template-bench: \(error)\n".utf8))
    exit(2)
}

let query = "?q=x&filter=%7B%22name%22%3A%22Rex%22%7D"
let headers: HTTPHeaders = ["Host": "127.0.0.1:8080", "User-Agent": "wrk", "Accept": "*/*"]
func request(_ path: String) -> HTTPServerRequest {
    HTTPServerRequest(target: path + query, headers: headers)
}
let plain = request("/api/plain/42")
let templated = request("/api/templated/42")
let file = request("/api/file/42")
let expected = server.reply(to: plain).response()?.body
for other in [templated, file] where server.reply(to: other).response()?.body != expected {
    FileHandle.standardError.write(Data("template-bench: \(other.head.target) does not answer the plain bytes\n".utf8))
    exit(1)
}

func format(_ value: Double) -> String { String(format: "%8.0f", value) }

func threadCPUNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Thread CPU nanoseconds per answer over `requests` answers.
func measure(_ request: HTTPServerRequest) -> Double {
    let start = threadCPUNanoseconds()
    var statuses = 0
    for _ in 0..<requests {
        if case .prepared(let prepared) = server.reply(to: request) { statuses &+= prepared.response.status.code }
    }
    let elapsed = threadCPUNanoseconds() - start
    precondition(statuses == 200 &* requests, "an answer was not a prepared 200")
    return Double(elapsed) / Double(requests)
}

// TEMPLATE_BENCH_ONLY=plain|templated|file: that figure alone, its mean over the rounds (for a
// profiler, which then sees one path only).
if let only = ProcessInfo.processInfo.environment["TEMPLATE_BENCH_ONLY"] {
    let figures = ["plain": plain, "templated": templated, "file": file]
    guard let chosen = figures[only] else {
        FileHandle.standardError.write(
            Data("template-bench: TEMPLATE_BENCH_ONLY is '\(only)'; expected plain, templated or file\n".utf8))
        exit(64)
    }
    var total = 0.0
    for _ in 0..<rounds { total += measure(chosen) }
    print("\(only): \(format(total / Double(rounds))) ns per request")
    exit(0)
}
var best = (plain: Double.infinity, templated: Double.infinity, file: Double.infinity)
for _ in 0..<rounds {
    best.plain = min(best.plain, measure(plain))
    best.templated = min(best.templated, measure(templated))
    best.file = min(best.file, measure(file))
}
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%6.2f", a / b) }
var load = [Double](repeating: 0, count: 3)
_ = getloadavg(&load, 3)
print(
    "in-process answer, thread CPU ns per request, best of \(rounds) rounds of \(requests) (load \(load.map { String(format: "%.2f", $0) }.joined(separator: " ")))"
)
print("figure                                  ns/request   plain ns   ratio (plain/this)")
print(
    "templated body (2 request values + jsonPath)  \(format(best.templated))   \(format(best.plain))   \(ratio(best.plain, best.templated))"
)
print(
    "templated bodyFileName (same template)        \(format(best.file))   \(format(best.plain))   \(ratio(best.plain, best.file))"
)
print(
    "templating adds \(format(best.templated - best.plain)) ns per request (body), \(format(best.file - best.plain)) ns (body file)"
)
