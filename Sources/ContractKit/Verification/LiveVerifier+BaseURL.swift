import HTTPCore

extension LiveVerifier {
    /// What the calls of one verification answered: how many, how many were 404s or web pages
    /// served as a success, and the first request, to try again under another base URL.
    struct AnswerTally {
        private(set) var total = 0
        private(set) var notFound = 0
        private(set) var webPages = 0
        private(set) var first: (method: HTTPMethod, url: String)?

        mutating func count(_ response: HTTPClientResponse, to request: HTTPClientRequest) {
            total += 1
            if first == nil { first = (request.method, request.url) }
            // A web page served as a success (a site or a single-page app at that URL), not an
            // HTML error page of a gateway in front of the API (a 502 is the API failing).
            if response.status.code == 404 {
                notFound += 1
            } else if (200..<300).contains(response.status.code), BaseURLProbe.isWebPage(response) {
                webPages += 1
            }
        }

        /// Whether every answer was a 404 or a web page: not the API.
        var nothingFromTheAPI: Bool { total > 0 && notFound + webPages == total }
    }

    /// The error for a base URL that is not the API's (every answer a 404 or a web page), with
    /// the base URL to pass when ``BaseURLProbe`` finds one; nil when the API answered. One
    /// operation answering 404 is drift in that operation unless the probe finds the API
    /// under another base URL.
    func wrongBaseURL(_ baseURL: String, answers: AnswerTally, operations: [String]) async -> VerificationError? {
        guard configuration.detectsWrongBaseURL, answers.nothingFromTheAPI, let first = answers.first else {
            return nil
        }
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let probe = BaseURLProbe(transport: transport, headers: configuration.headers, timeout: configuration.timeout)
        let suggestion = await probe.suggest(base: base, method: first.method, url: first.url)
        guard operations.count > 1 || suggestion != nil else { return nil }
        let what =
            answers.webPages == 0
            ? "answered 404"
            : answers.notFound == 0
                ? "answered with a web page (text/html)"
                : "answered 404 or a web page (text/html)"
        let names = operations.prefix(3).joined(separator: ", ") + (operations.count > 3 ? ", ..." : "")
        let wrong = WrongBaseURL(base: base, answered: what, operations: names, suggestion: suggestion)
        return VerificationError(
            operation: "all operations", url: base, message: wrong.message(option: nil), wrongBaseURL: wrong)
    }
}
