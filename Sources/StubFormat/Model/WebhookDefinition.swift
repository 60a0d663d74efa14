import HTTPCore
import JSONKit

/// A call petmock makes after a stub answered (WireMock's `webhook` serve event listener):
/// `serveEventListeners: [{"name": "webhook", "parameters": {...}}]`, or the older
/// `postServeActions`. The URL, method, header values and body are Handlebars templates,
/// rendered with the request that triggered the call as `originalRequest` and the whole
/// parameters object as `parameters`.
///
/// ```swift
/// WebhookDefinition(method: "POST", url: "http://127.0.0.1:9000/callback",
///                   headers: ["Content-Type": "application/json"],
///                   body: .text(#"{"id": "{{jsonPath originalRequest.body '$.id'}}"}"#))
/// ```
public struct WebhookDefinition: Sendable, Hashable {
    /// The method, or a template of one (`method`); WireMock's default is GET.
    public var method: String
    /// The absolute `http://` or `https://` URL, or a template of one (`url`).
    public var url: String
    /// The header fields sent, each value a template (`headers`).
    public var headers: HTTPHeaders
    /// The body (`body`, `jsonBody`, `base64Body` or `bodyFileName` under `__files/`); text is
    /// a template.
    public var body: ResponseBody
    /// A wait before the call (`delay`: `fixed`, `uniform` or `lognormal`); a fixed delay is
    /// a uniform one whose bounds are equal.
    public var delay: DelayDistribution?
    /// The parameters that are not the call's own fields, kept as written: templates read
    /// them as `parameters.name`, as in WireMock.
    public var extraParameters: JSONObject
    /// The listener's `requestPhases` (WireMock's phase names); nil when not given. A webhook
    /// is sent in the `AFTER_COMPLETE` phase only, so a list without it means never (``isSent``).
    public var requestPhases: [String]?

    /// Whether the webhook is sent at all: when its listener fires in ``sendingPhase``.
    public var isSent: Bool { requestPhases.map { $0.contains(Self.sendingPhase) } ?? true }

    /// WireMock's request phases (`ServeEventListener.RequestPhase`).
    public static let requestPhaseNames = ["BEFORE_MATCH", "AFTER_MATCH", "BEFORE_RESPONSE_SENT", "AFTER_COMPLETE"]

    /// The phase a webhook is sent in: once the answer is complete.
    public static let sendingPhase = "AFTER_COMPLETE"

    /// Creates a webhook.
    public init(
        method: String = "GET", url: String, headers: HTTPHeaders = HTTPHeaders(), body: ResponseBody = .none,
        delay: DelayDistribution? = nil, extraParameters: JSONObject = [:], requestPhases: [String]? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.delay = delay
        self.extraParameters = extraParameters
        self.requestPhases = requestPhases
    }

    /// WireMock's name for the listener.
    public static let listenerName = "webhook"

    /// The parameter names that are the call's own fields.
    public static let fields = [
        "method", "url", "headers", "body", "jsonBody", "base64Body", "bodyFileName", "delay",
    ]

    /// The `parameters` object as WireMock writes it (and templates read it).
    public var parameters: JSONObject {
        var object = JSONObject()
        object["method"] = .string(method)
        object["url"] = .string(url)
        if !headers.isEmpty { object["headers"] = headers.wireMockJSON }
        body.write(into: &object)
        switch delay {
        case .uniform(let lower, let upper)? where lower == upper:
            object["delay"] = ["type": "fixed", "milliseconds": .int(Int64(lower))]
        case .uniform(let lower, let upper)?:
            object["delay"] = ["type": "uniform", "lower": .int(Int64(lower)), "upper": .int(Int64(upper))]
        case .lognormal(let median, let sigma, let maxValue)?:
            var distribution: JSONObject = ["type": "lognormal", "median": .double(median), "sigma": .double(sigma)]
            if let maxValue { distribution["maxValue"] = .double(maxValue) }
            object["delay"] = .object(distribution)
        case nil: break
        }
        for member in extraParameters.members where object[member.key] == nil {
            object[member.key] = member.value
        }
        return object
    }

    /// The `serveEventListeners` entry.
    public var json: JSONValue {
        var object: JSONObject = ["name": .string(Self.listenerName)]
        if let requestPhases { object["requestPhases"] = .array(requestPhases.map(JSONValue.string)) }
        object["parameters"] = .object(parameters)
        return .object(object)
    }
}
