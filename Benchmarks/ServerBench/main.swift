import HTTPCore
// Serves the three-pet JSON body (about 150 bytes) from a PreparedResponse on every path:
// the figure `Benchmarks/bench-server.sh` compares with nginx.
// Usage: ServerBench [--port N] [--loops N]
import HTTPHandlerKit
import HTTPServerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var port = 8080
var loops: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = arguments.popFirst().flatMap { Int($0) } ?? port
    case "--loops": loops = arguments.popFirst().flatMap { Int($0) }
    default: break
    }
}

let body = Array(
    #"[{"firstName":"Rex","lastName":"Smith","vetId":1},{"firstName":"Bella","lastName":"Jones","vetId":2},{"firstName":"Max","lastName":"Brown","vetId":3}]"#
        .utf8)
let pets = PreparedResponse(headers: ["Content-Type": "application/json"], body: body)
let server = HTTPServer(configuration: HTTPServerConfiguration(port: port, eventLoopCount: loops)) { _ in
    .prepared(pets)
}
do {
    try server.start()
} catch {
    let message = Array("ServerBench: \(error)\n".utf8)
    _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}
server.shutdownOnSignals()
server.waitUntilStopped()
