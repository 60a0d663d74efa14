import APISchema
import ArgumentKit
import ContractKit
import Dispatch
import HTTPClient
import HTTPCore
import MockEngine
import StubServerKit

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

        /// What a crawl did: the walk's report, what was written, and the 404s held back.
        struct Outcome {
            let live: VerificationReport
            let recording: RecordingResult
            /// Exchanges answered 404 while nothing else had answered yet (none written).
            let notFound: [RecordedExchange]
        }

        /// Crawls and records, printing what happens, then checks what was written; SIGINT and
        /// SIGTERM stop the walk and keep what was recorded. Returns the exit code.
        func run() async throws -> ExitCode {
            let source = ContractSource(file: check.contractFile, builtIn: check.builtIn)
            let (contract, models) = try source.load()
            let recorder: Recorder
            do {
                recorder = try Recorder(
                    configuration: configuration, stubsDirectory: directory,
                    onEvent: { writeError("petmock: \($0)") })
            } catch {
                writeError("petmock: error: \(error)")
                return .couldNotRun
            }
            let curl = Self.transport(configuration)
            let target = configuration.targetBaseURL ?? ""
            writeError("petmock: crawling \(target) (contract \(source.name)) into \(directory)")
            let walk = Task {
                await crawl(
                    contract: contract, models: models, contractName: source.name, recorder: recorder, transport: curl)
            }
            let signals = Self.cancelOnSignals(walk)
            let outcome = await walk.value
            for signal in signals { signal.cancel() }
            for error in outcome.live.errors {
                writeError(
                    TerminalText.escape("petmock: error: \(error.operation): \(error.url ?? ""): \(error.message)"))
            }
            // An operation with no value for a required parameter was not called: said, not failed.
            // The crawl calls GET operations only (it has no --methods): the others it skips are no news.
            for skipped in outcome.live.skipped where skipped.cause == .noParameterValue {
                writeError(TerminalText.escape("petmock: \(skipped.operation): skipped: \(skipped.reason)"))
            }
            if !outcome.notFound.isEmpty {
                writeError(await Self.nothingFound(outcome.notFound, target: target, headers: headers, transport: curl))
                return .couldNotRun
            }
            if outcome.recording.mappings.isEmpty && !outcome.live.errors.isEmpty { return .couldNotRun }
            return check.report(outcome.recording)
        }

        /// The walk itself, without printing or signals: the contract verifier's walk of the
        /// operations through a ``RecordingTransport`` over `transport`; finishes the recorder.
        func crawl(
            contract: Contract, models: ModelRegistry, contractName: String, recorder: Recorder,
            transport: any HTTPTransport
        ) async -> Outcome {
            // 404s are recorded only once the API has answered something else (the recorder's
            // `holdsNotFound`): a target where nothing is found records nothing.
            let recording = RecordingTransport(wrapping: transport, recorder: recorder)
            let verifier = LiveVerifier(
                contract: contract, models: models, transport: recording,
                configuration: LiveVerifier.Configuration(
                    maxPerOperation: maxPerOperation, timeout: configuration.timeout, headers: headers,
                    detectsWrongBaseURL: false))
            let live = await verifier.verify(baseURL: configuration.targetBaseURL ?? "", contractName: contractName)
            let result = recorder.finish()
            return Outcome(live: live, recording: result, notFound: result.heldNotFound)
        }

        /// libcurl with the recording's timeout.
        static func transport(_ configuration: RecordingConfiguration) -> CurlTransport {
            let seconds = Int(configuration.timeout.components.seconds)
            return CurlTransport(
                configuration: CurlTransportConfiguration(
                    connectTimeout: .seconds(min(seconds, 10)), totalTimeout: configuration.timeout,
                    userAgent: "petmock"))
        }

        /// Why nothing was recorded when every request answered 404, and what to pass instead:
        /// when TARGET/api answers the first request, that.
        static func nothingFound(
            _ exchanges: [RecordedExchange], target: String, headers: HTTPHeaders, transport: any HTTPTransport,
            mode: String = "--crawl"
        ) async -> String {
            var base = target
            while base.hasSuffix("/") { base.removeLast() }
            let requests = exchanges.prefix(3).map(\.label).joined(separator: ", ")
            let more = exchanges.count > 3 ? ", ..." : ""
            var message =
                "petmock: error: every request answered 404 at \(base) (\(requests)\(more)); nothing recorded. "
                + "\(mode) takes the API's base URL, path prefix included, as 'petcontract verify --live' does"
            if let first = exchanges.first,
                let suggestion = await BaseURLProbe(transport: transport, headers: headers).suggest(
                    base: base, method: first.method, url: first.upstream.url)
            {
                return message + ": " + suggestion.hint(option: "--target")
            }
            message += " (\(BaseURLProbe.nothingFound(under: base)))"
            return message
        }

        /// Makes SIGINT and SIGTERM cancel the task instead of killing the process.
        private static func cancelOnSignals(_ task: Task<Outcome, Never>) -> [any DispatchSourceSignal] {
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
