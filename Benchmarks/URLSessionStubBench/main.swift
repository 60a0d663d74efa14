// Round trips per second through URLSession, in one run: (a) a bare URLProtocol answering fixed
// bytes (the floor of any URLProtocol stub), (b) a StubURLSessionHost whose handler is a
// StubServer serving a small JSON stub, (c) the same StubServer listening on 127.0.0.1 port 0,
// reached over loopback; then the resident memory 1,000 hosts cost, created and kept.
// Each figure is the best of the rounds; requests are sequential (one in flight).
// Usage: urlsession-stub-bench [REQUESTS-PER-ROUND] [ROUNDS]
import Foundation
import HTTPCore
import HTTPServerKit
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
            FileHandle.standardError.write(Data("urlsession-stub-bench: a request to \(url) was not answered with the stub\n".utf8))
            exit(2)
        }
    }
}

/// Round trips per second, the best of the rounds (after a warm-up).
func perSecond(_ session: URLSession, _ url: URL) -> Double {
    roundTrips(session, url, count: min(requests, 1000))
    var best = 0.0
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        roundTrips(session, url, count: requests)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = max(best, Double(requests) / seconds)
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
let floorSession = URLSession(configuration: floorConfiguration)
let floor = perSecond(floorSession, stubURL)

let server = stubServer()
let host = StubURLSessionHost(handler: server)
let inProcess = perSecond(host.session, stubURL)

do {
    try server.start()
} catch {
    FileHandle.standardError.write(Data("urlsession-stub-bench: \(error)\n".utf8))
    exit(2)
}
guard let loopbackURL = URL(string: "http://127.0.0.1:\(server.port)/api/pets") else { exit(2) }
let loopbackSession = URLSession(configuration: .ephemeral)
let loopback = perSecond(loopbackSession, loopbackURL)
server.stop()

let hostCount = 1000
let before = residentBytes()
var kept: [StubURLSessionHost] = []
kept.reserveCapacity(hostCount)
for _ in 0..<hostCount { kept.append(StubURLSessionHost(handler: server)) }
let afterCreate = residentBytes()
for kept in kept { roundTrips(kept.session, stubURL, count: 1) }
let afterRequest = residentBytes()

func figure(_ value: Double) -> String { String(format: "%9.0f", value) }
let ratio = inProcess / floor
print("URLSession round trips per second (sequential, best of \(rounds) rounds of \(requests))")
print("  (a) bare URLProtocol, fixed bytes (floor)     \(figure(floor))")
print("  (b) StubURLSessionHost + StubServer, in process \(figure(inProcess))")
print("  (c) StubServer over loopback (127.0.0.1)      \(figure(loopback))")
print(String(format: "  (b)/(a) = %.2f (target >= 0.80 of the floor: %@)", ratio, ratio >= 0.8 ? "met" : "NOT met"))
print(String(format: "  (b)/(c) = %.1f", inProcess / loopback))
print("Memory per host (\(hostCount) hosts kept, RSS from /proc/self/statm)")
print("  created:                 \((afterCreate - before) / hostCount) bytes per host")
print("  after one request each:  \((afterRequest - before) / hostCount) bytes per host")
