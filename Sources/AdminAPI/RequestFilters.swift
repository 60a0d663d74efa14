import MockEngine

/// The query of `GET /__admin/requests`, read as WireMock reads it: `unmatched=true`,
/// `matchingStub=ID`, `since=` an ISO 8601 date-time (requests logged after it) and `limit=N`.
/// A value that cannot be read is a failure naming the parameter, what was expected and what
/// came, so a filter is never silently left out; so is a parameter of another name.
struct RequestFilters: Sendable {
    var unmatchedOnly = false
    var matchingStub: String?
    var sinceMilliseconds: Int64?
    var limit: Int?

    struct Failure: Error, Sendable {
        let message: String
    }

    static func read(_ query: [(name: String, value: String)]) -> Result<RequestFilters, Failure> {
        var filters = RequestFilters()
        for (name, value) in query {
            switch name {
            case "unmatched":
                guard value == "true" || value == "false" else {
                    return .failure(Failure(message: "unmatched: expected true or false, found '\(value)'"))
                }
                filters.unmatchedOnly = value == "true"
            case "matchingStub":
                guard !value.isEmpty else {
                    return .failure(Failure(message: "matchingStub: expected a stub mapping id, found nothing"))
                }
                filters.matchingStub = value
            case "since":
                guard let date = DateTimeFormat.iso(value), date.isValid else {
                    return .failure(
                        Failure(
                            message: "since: expected an ISO 8601 date-time (2024-05-01T12:00:00Z), found '\(value)'"))
                }
                // In milliseconds from seconds (nanoseconds since 1970 overflow past 2262).
                filters.sinceMilliseconds =
                    (date.wallSeconds - Int64(date.offset ?? 0)) * 1000 + Int64(date.nanosecond / 1_000_000)
            case "limit":
                guard let number = Int(value), number >= 0 else {
                    return .failure(Failure(message: "limit: expected a whole number of 0 or more, found '\(value)'"))
                }
                filters.limit = number
            default:
                // WireMock reads no other parameter here: one petmock does not know would
                // otherwise be a filter silently left out.
                return .failure(
                    Failure(
                        message: "unknown parameter '\(name)': expected unmatched, matchingStub, "
                            + "since or limit"))
            }
        }
        return .success(filters)
    }
}
