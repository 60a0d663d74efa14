// Round trips per second through URLSession, in one run: (a) a bare URLProtocol answering fixed
// bytes (the floor of any URLProtocol stub), (b) a StubSession (petmock's engine in process)
// serving a small JSON stub, (c) a StubServer serving the same stub on 127.0.0.1 port 0,
// reached over loopback; then the resident memory 1,000 StubSessions cost, created and kept.
// Each figure is the best of the rounds; requests are sequential (one in flight).
// Usage: urlsession-stub-bench [REQUESTS-PER-ROUND] [ROUNDS]
import Foundation
import HTTPCore
import MockEngine
import StubFormat
import StubServerKit
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let requests = arguments.first.flatMap { Int($0) } ?? 20_000
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 3
guard requests > 0, rounds > 0 else {
    FileHandle.standardError.write(Data("usage: urlsession-stub-bench [REQUESTS-PER-ROUND] [ROUNDS]\n".utf8))
    exit(64)
}

let json = #"[{"id":1,"name":"Rex","kind":"dog"},{"id":2,"name":"Tom","kind":"cat"}]"#
let mapping = """
    {"request": {"method": "GET", "urlPath": "/api/pets"},
     "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": \(String(reflecting: json))}}
    """

/// The floor: a URLProtocol that answers every request with the same bytes.
final class FixedDataProtocol: URLProtocol {
    static let body = Data(json.utf8)

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json", "Content-Length": String(Self.body.count)])
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Self.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

/// One figure as a line of the report.
func line(_ name: String, _ figure: Figure) -> String {
    "  " + name.padding(toLength: 50, withPad: " ", startingAt: 0)
        + String(format: " %8.0f/s  %7.1f us CPU", figure.perSecond, figure.cpuMicroseconds)
}

/// Runs `count` requests one after another; fails the run on a wrong answer.
func roundTrips(_ session: URLSession, _ url: URL, count: Int) {
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        nonisolated(unsafe) var ok = false
        session.dataTask(with: url) { data, response, _ in
            ok = (response as? HTTPURLResponse)?.statusCode == 200 && data?.count == json.utf8.count
            done.signal()
        }
        .resume()
        done.wait()
        guard ok else {
            FileHandle.standardError.write(
                Data("urlsession-stub-bench: a request to \(url) was not answered with the stub\n".utf8))
            exit(2)
        }
    }
}

/// The CPU time this process used so far (all threads, user and system).
func processCPUTime() -> Duration {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let total = { (time: timeval) in Duration.seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec)) }
    return total(usage.ru_utime) + total(usage.ru_stime)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// One target's best round: round trips per wall-clock second, and CPU microseconds per round trip.
struct Figure {
    var perSecond = 0.0
    var cpuMicroseconds = Double.infinity
}

/// Each target's best round; the targets take turns within a round, so a change in the
/// machine's load weighs on all of them alike.
func measure(_ targets: [(URLSession, URL)]) -> [Figure] {
    for (session, url) in targets { roundTrips(session, url, count: min(requests, 1000)) }
    var best = [Figure](repeating: Figure(), count: targets.count)
    for _ in 0..<rounds {
        for (index, (session, url)) in targets.enumerated() {
            let (start, cpuStart) = (ContinuousClock.now, processCPUTime())
            roundTrips(session, url, count: requests)
            let (wall, cpu) = (ContinuousClock.now - start, processCPUTime() - cpuStart)
            best[index].perSecond = max(best[index].perSecond, Double(requests) / seconds(wall))
            best[index].cpuMicroseconds = min(best[index].cpuMicroseconds, seconds(cpu) * 1e6 / Double(requests))
        }
    }
    return best
}

/// The resident set size in bytes (`/proc/self/statm`'s second field).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func stubServer() -> StubServer {
    do {
        return try StubServer(
            mappings: [try StubMapping(json: mapping)],
            configuration: StubServerConfiguration(host: "127.0.0.1", port: 0))
    } catch {
        FileHandle.standardError.write(Data("urlsession-stub-bench: \(error)\n".utf8))
        exit(2)
    }
}

guard let stubURL = URL(string: "http://api.example/api/pets") else { exit(2) }

let floorConfiguration = URLSessionConfiguration.ephemeral
floorConfiguration.protocolClasses = [FixedDataProtocol.self]
// Configured as a host's sessions are, but for the protocol: no cache.
floorConfiguration.urlCache = nil
floorConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
let floorSession = URLSession(configuration: floorConfiguration)
let server = stubServer()
func stubSession() -> StubSession {
    do {
        return try StubSession(mappings: [try StubMapping(json: mapping)])
    } catch {
        FileHandle.standardError.write(Data("urlsession-stub-bench: \(error)\n".utf8))
        exit(2)
    }
}
let host = stubSession()
do {
    try server.start()
} catch {
    FileHandle.standardError.write(Data("urlsession-stub-bench: \(error)\n".utf8))
    exit(2)
}
guard let loopbackURL = URL(string: "http://127.0.0.1:\(server.port)/api/pets") else { exit(2) }
let loopbackSession = URLSession(configuration: .ephemeral)
// URLSESSION_BENCH_ONLY=floor or =stub runs that figure alone (for a profiler), and stops there.
switch ProcessInfo.processInfo.environment["URLSESSION_BENCH_ONLY"] {
case "floor":
    print(line("(a) bare URLProtocol, fixed bytes (floor)", measure([(floorSession, stubURL)])[0]))
    exit(0)
case "stub":
    print(line("(b) StubSession (the engine), in process", measure([(host.session, stubURL)])[0]))
    exit(0)
default:
    break
}
let figures = measure([(floorSession, stubURL), (host.session, stubURL), (loopbackSession, loopbackURL)])
let (floor, inProcess, loopback) = (figures[0], figures[1], figures[2])
server.stop()

let hostCount = 1000
let before = residentBytes()
var kept: [StubSession] = []
kept.reserveCapacity(hostCount)
for _ in 0..<hostCount { kept.append(stubSession()) }
let afterCreate = residentBytes()
for kept in kept { roundTrips(kept.session, stubURL, count: 1) }
let afterRequest = residentBytes()

func figure(_ value: Double) -> String { String(format: "%9.0f", value) }
let ratio = inProcess.perSecond / floor.perSecond
let cpuRatio = floor.cpuMicroseconds / inProcess.cpuMicroseconds
print("URLSession round trips (sequential, best of \(rounds) rounds of \(requests)): per wall second, CPU per trip")
print(line("(a) bare URLProtocol, fixed bytes (floor)", floor))
print(line("(b) StubSession (the engine), in process", inProcess))
print(line("(c) StubServer over loopback (127.0.0.1)", loopback))
print(String(format: "  (b)/(a) = %.2f by wall clock, %.2f by CPU (target >= 0.80 of the floor)", ratio, cpuRatio))
print(String(format: "  (b)/(c) = %.1f by wall clock", inProcess.perSecond / loopback.perSecond))
print("Memory per session (\(hostCount) StubSessions kept, each with its own engine; RSS from /proc/self/statm)")
print("  created:                 \((afterCreate - before) / hostCount) bytes per session")
print("  after one request each:  \((afterRequest - before) / hostCount) bytes per session")
print("  all \(hostCount) sessions:        \((afterRequest - before) >> 20) MiB (target: bounded, linear in sessions)")
