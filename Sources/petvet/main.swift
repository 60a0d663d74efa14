import ArgumentKit
import EndpointKit
import HTTPClient
import HTTPCore
import PetClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Format: String, CaseIterable, Sendable { case text, json }

let baseURLArgument = Argument<String>.requiredHTTPURL(
    "base-url", help: "The Pet API's base URL, such as http://127.0.0.1:8080/api.")
let formatArgument = Argument<Format>.choice(
    "format", value: "FORMAT", default: .text, help: "'text' (a table) or 'json'.")
let concurrencyArgument = Argument<Int>.number(
    "concurrency", default: 8, in: 1...256, help: "The most vet requests in flight at once.")
let timeoutArgument = Argument<Int>.number(
    "timeout", value: "SECONDS", default: 10, in: 1...3600, help: "How long one request may take.")
let verboseArgument = Argument<Bool>.flag(
    "verbose", short: "v", help: "Log requests as curl commands and responses as summaries to stderr.")

let spec = CommandSpec(
    name: "petvet", abstract: "Print the pet/vet table the app would show, fetched from a Pet API.",
    arguments: [baseURLArgument, formatArgument, concurrencyArgument, timeoutArgument, verboseArgument],
    discussion: """
        Prints the rows (pet name; vet name and title), then each pet that got no row and why.
        JSON: {"rows":[{"petName":…,"vetNameAndTitle":…}],"dropped":[{"index":N,"reason":…}],"requests":N}
        """,
    exitCodes: "0 the pet list was fetched (dropped pets are not failures), 2 it could not be, 64 usage error")

let petvet = CommandLineTool.single(spec) { arguments in
    let format = arguments[formatArgument]
    let concurrency = arguments[concurrencyArgument]
    let timeout = arguments[timeoutArgument]
    let baseURL = arguments[baseURLArgument]

    let activity = RequestActivity(showsSpinner: isatty(1) == 1)
    var configuration = CurlTransportConfiguration(
        connectTimeout: .seconds(min(timeout, 10)), totalTimeout: .seconds(timeout))
    if arguments[verboseArgument] {
        configuration.logger = HTTPClientLogger { entry in
            activity.printAbove(TerminalText.escapeEachLine("\(entry)"), toStandardError: true)
        }
    }
    let service = RESTPetService(
        baseURL: baseURL, transport: CurlTransport(configuration: configuration), activityObserver: activity,
        errorPresenter: activity)
    let builder = ViewModelBuilder(service: service, maxConcurrentVetRequests: concurrency)

    activity.start()
    let outcome: Result<ViewModelReport, EndpointError>
    do throws(EndpointError) {
        let report = try await builder.build()
        outcome = .success(report)
    } catch {
        outcome = .failure(error)
    }
    activity.stop()

    switch outcome {
    case .success(let report):
        print(format == .json ? report.renderedJSON(requests: activity.requestCount) : report.renderedText())
        return .success
    case .failure(let error):
        // The error presenter has printed the reason already.
        var line = "petvet: error: could not fetch the pet list"
        if case .http(let status, _, _, _) = error, status.code == 404 {
            line += TerminalText.escape(
                "; \(baseURL)/pets is not there: is --base-url the API's base URL? (the Pet API's ends in /api, "
                    + "as in http://127.0.0.1:8080/api)")
        }
        writeError(line)
        return .couldNotRun
    }
}

await petvet.main()
