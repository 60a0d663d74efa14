import EndpointKit
// Fetches the pet/vet table two ways against one Pet API and prints what each cost:
//   ours:  ViewModelBuilder (pets once, each distinct vet once, bounded concurrency)
//   seeds: the seeds' DispatchGroup design (one vet request per pet, all at once), with
//          URLSession's default of 6 connections per host
// Usage: ClientBench ours|seeds BASE_URL [CONCURRENCY]
// Prints one line: `requests=N wall_ms=X rows=R dropped=D`.
import HTTPClient
import HTTPCore
import PetClient
import PetModels
import Platform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class RequestCounter: ActivityObserver {
    let started = Locked(0)
    func requestStarted(_ request: HTTPClientRequest) { started.withLock { $0 += 1 } }
    func requestFinished(_ request: HTTPClientRequest, error: EndpointError?) {}
}

/// The seeds' ViewModelBuilder, minus its data race: every pet's vet fetched separately.
func seedsWay(_ service: RESTPetService) async throws(EndpointError) -> (rows: Int, dropped: Int) {
    let pets = try await service.pets()
    let rows = await withTaskGroup(of: PetVetCellViewModel?.self) { group in
        for pet in pets {
            guard let vetId = pet.vetId else { continue }
            group.addTask {
                let vet = try? await service.vet(id: vetId)
                return PetVetCellViewModel(pet, vet)
            }
        }
        return await group.reduce(into: 0) { count, row in count += row == nil ? 0 : 1 }
    }
    return (rows, pets.count - rows)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, ["ours", "seeds"].contains(arguments[0]) else {
    writeLine("usage: ClientBench ours|seeds BASE_URL [CONCURRENCY]", to: 2)
    exit(64)
}
let concurrency = arguments.count > 2 ? Int(arguments[2]) ?? 8 : 8
let counter = RequestCounter()
let seeds = arguments[0] == "seeds"
let transport = CurlTransport(configuration: .init(maxConnectionsPerHost: seeds ? 6 : 0))
let service = RESTPetService(baseURL: arguments[1], transport: transport, activityObserver: counter)
let clock = ContinuousClock()
let start = clock.now
let outcome: (rows: Int, dropped: Int)
do {
    if seeds {
        outcome = try await seedsWay(service)
    } else {
        let report = try await ViewModelBuilder(service: service, maxConcurrentVetRequests: concurrency).build()
        outcome = (report.rows.count, report.dropped.count)
    }
} catch {
    writeLine("ClientBench: \(error)", to: 2)
    exit(2)
}
let elapsed = clock.now - start
let millis = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
let requests = counter.started.withLock { $0 }
writeLine(
    "requests=\(requests) wall_ms=\(Int(millis.rounded())) rows=\(outcome.rows) dropped=\(outcome.dropped)", to: 1)

func writeLine(_ text: String, to descriptor: Int32) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
