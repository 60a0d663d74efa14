import ArgumentKit
import ContractKit
import Dispatch
import HTTPClient
import HTTPCore
import PetAppContract
import StubServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordCommand {
    /// `petmock record --crawl`: the contract verifier's walk of the operations (ids found in
    /// earlier responses fill later paths), each exchange recorded through a
    /// ``RecordingTransport``. SIGINT/SIGTERM cancel the walk; what was recorded is kept.
    struct Crawl {
        let configuration: RecordingConfiguration
        let directory: String
        let check: RecordingCheck
        let maxPerOperation: Int
        /// Sent with every request (credentials, say); the recorder never writes them.
        let headers: HTTPHeaders

        func run() async throws -> ExitCode {
            let source = ContractSource(file: check.contractFile, builtIn: PetApp.contract)
            let (contract, models) = try source.load()
            let recorder: Recorder
            do {
                recorder = try Recorder(
                    configuration: configuration, stubsDirectory: directory,
                    onEvent: { writeError("petmock: \($0)") })
            } catch {
                writeError("petmock: \(error)")
                return .couldNotRun
            }
            let seconds = Int(configuration.timeout.components.seconds)
            let transport = RecordingTransport(
                wrapping: CurlTransport(
                    configuration: CurlTransportConfiguration(
                        connectTimeout: .seconds(min(seconds, 10)), totalTimeout: configuration.timeout,
                        userAgent: "petmock")),
                recorder: recorder)
            let verifier = LiveVerifier(
                contract: contract, models: models, transport: transport,
                configuration: LiveVerifier.Configuration(
                    maxPerOperation: maxPerOperation, timeout: configuration.timeout, headers: headers))
            let target = configuration.targetBaseURL ?? ""
            writeOutput("petmock: crawling \(target) (contract \(source.name)) into \(directory)")
            let walk = Task { await verifier.verify(baseURL: target, contractName: source.name) }
            let signals = Self.cancelOnSignals(walk)
            let live = await walk.value
            for signal in signals { signal.cancel() }
            for error in live.errors {
                writeError("petmock: \(error.operation): \(error.url ?? ""): \(error.message)")
            }
            let result = recorder.finish()
            if result.mappings.isEmpty && !live.errors.isEmpty { return .couldNotRun }
            return check.report(result)
        }

        /// Makes SIGINT and SIGTERM cancel the task instead of killing the process.
        private static func cancelOnSignals(_ task: Task<VerificationReport, Never>) -> [any DispatchSourceSignal] {
            [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { task.cancel() }
                source.resume()
                return source
            }
        }
    }
}
