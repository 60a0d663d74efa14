import ArgumentKit
import HTTPClient
import HTTPCore
import PetClient

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let spec = CommandSpec(
    name: "petvet", abstract: "Print the pet/vet table the app would show, fetched from a Pet API.",
    arguments: [
        .option(
            "base-url", value: "URL", required: true, help: "The Pet API's base URL, such as http://127.0.0.1:8080/api."
        ),
        .option("format", value: "FORMAT", default: "text", help: "'text' (a table) or 'json'."),
        .option("concurrency", value: "N", default: "8", help: "The most vet requests in flight at once."),
        .option("timeout", value: "SECONDS", default: "10", help: "How long one request may take."),
        .flag("verbose", short: "v", help: "Log requests as curl commands and responses as summaries to stderr."),
    ],
    discussion: """
        Prints the rows (pet name; vet name and title), then each pet that got no row and why.
        JSON: {"rows":[{"petName":…,"vetNameAndTitle":…}],"dropped":[{"index":N,"reason":…}],"requests":N}

        EXIT CODES: 0 the pet list was fetched (dropped pets are not failures), 2 it could not be,
        64 usage error.
        """)

let petvet = CommandLineTool.single(spec) { arguments in
    let format = try arguments.choice("format", from: ["text", "json"]) ?? "text"
    let concurrency = try arguments.int("concurrency", in: 1...256) ?? 8
    let timeout = try arguments.int("timeout", in: 1...3600) ?? 10
    let baseURL = try arguments.httpURL("base-url") ?? ""

    let activity = RequestActivity(showsSpinner: isatty(1) == 1)
    var configuration = CurlTransportConfiguration(
        connectTimeout: .seconds(min(timeout, 10)), totalTimeout: .seconds(timeout))
    if arguments.flag("verbose") {
        configuration.logger = HTTPClientLogger { entry in
            activity.printAbove(TerminalText.escapeEachLine("\(entry)"), toStandardError: true)
        }
    }
    let service = RESTPetService(
        baseURL: baseURL, transport: CurlTransport(configuration: configuration), activityObserver: activity,
        errorPresenter: activity)
    let builder = ViewModelBuilder(service: service, maxConcurrentVetRequests: concurrency)

    activity.start()
    let outcome: Result<ViewModelReport, PetClientError>
    do throws(PetClientError) {
        let report = try await builder.build()
        outcome = .success(report)
    } catch {
        outcome = .failure(error)
    }
    activity.stop()

    switch outcome {
    case .success(let report):
        print(format == "json" ? report.renderedJSON(requests: activity.requestCount) : report.renderedText())
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
