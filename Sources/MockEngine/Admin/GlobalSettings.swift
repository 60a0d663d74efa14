import JSONKit
import StubFormat

/// WireMock's global settings (`/__admin/settings`), the ones petmock honours: a delay before
/// every stub answer and free JSON for clients. As in WireMock, a stub's own
/// `fixedDelayMilliseconds` or `delayDistribution` wins over the global one of its kind;
/// proxied and unmatched answers are not delayed.
///
/// ```swift
/// server.admin.settings = GlobalSettings(fixedDelay: 500)   // every stub answers 500 ms late
/// ```
public struct GlobalSettings: Sendable, Hashable {
    /// Milliseconds before each stub answer whose stub sets no `fixedDelayMilliseconds`.
    public var fixedDelay: Int?
    /// A random delay for each stub answer whose stub sets no `delayDistribution`.
    public var delayDistribution: DelayDistribution?
    /// Free JSON kept and returned as it was given; petmock reads none of it.
    public var extended: JSONObject?

    /// Creates settings; the defaults delay nothing.
    public init(fixedDelay: Int? = nil, delayDistribution: DelayDistribution? = nil, extended: JSONObject? = nil) {
        self.fixedDelay = fixedDelay
        self.delayDistribution = delayDistribution
        self.extended = extended
    }

    /// Whether the settings change no answer's delay (the hot path skips them).
    var delaysNothing: Bool { fixedDelay == nil && delayDistribution == nil }

    /// The delay of a stub answer: the stub's own of each kind when it sets one, else these
    /// settings' (WireMock's `Response.Builder.configureDelay`).
    func delay(_ own: StubDelay, of response: ResponseDefinition) -> StubDelay {
        var delay = own
        if response.fixedDelayMilliseconds == nil, let fixedDelay { delay.fixedMilliseconds = fixedDelay }
        if response.delayDistribution == nil, let delayDistribution { delay.distribution = delayDistribution }
        return delay
    }

    /// The settings as WireMock writes them (fields left unset are left out; petmock always
    /// passes proxy stubs through, so `proxyPassThrough` is always true).
    public var json: JSONValue {
        var object = JSONObject()
        if let fixedDelay { object["fixedDelay"] = .int(Int64(fixedDelay)) }
        if let delayDistribution {
            let response = ResponseDefinition(delayDistribution: delayDistribution)
            object["delayDistribution"] = response.json["delayDistribution"] ?? .null
        }
        if let extended { object["extended"] = .object(extended) }
        object["proxyPassThrough"] = true
        return .object(object)
    }
}
