import HTTPCore
import HTTPHandlerKit
import Platform
import StubFormat

/// How a stub answers, ready to send: a prepared response (with its delay and dribble) or a
/// fault.
enum ServedResponse: Sendable {
    case prepared(PreparedResponse, StubDelay, HTTPDribble?)
    case fault(HTTPFault, StubDelay)

    /// The status a client sees, or nil for a fault.
    var status: Int? {
        if case .prepared(let prepared, _, _) = self { return prepared.response.status.code }
        return nil
    }
}

/// A fixed delay plus an optional random one, drawn per request.
struct StubDelay: Sendable, Hashable {
    var fixedMilliseconds: Int
    var distribution: DelayDistribution?

    static let none = StubDelay(fixedMilliseconds: 0, distribution: nil)

    /// The delay for one request.
    func httpDelay() -> HTTPDelay {
        guard let distribution else {
            return fixedMilliseconds > 0 ? .fixed(.milliseconds(fixedMilliseconds)) : .none
        }
        let fixed = Duration.milliseconds(fixedMilliseconds)
        let random: HTTPDelay
        switch distribution {
        case .uniform(let lower, let upper): random = .uniform(lower: .milliseconds(lower), upper: .milliseconds(upper))
        case .lognormal(let median, let sigma, let maximum):
            random = .lognormal(
                median: .microseconds(Int64(median * 1000)), sigma: sigma,
                maximum: maximum.map { .microseconds(Int64($0 * 1000)) })
        }
        return .fixed(fixed + random.sample())
    }
}

/// A mapping ready to serve: its compiled request pattern, its prepared response, and a cache
/// of generated variants of that response, made on first use.
final class CompiledStub: Sendable {
    let mapping: StubMapping
    /// Load order across the store; higher is newer and wins priority ties.
    let sequence: Int
    /// Where the mapping came from.
    let origin: StubOrigin
    let pattern: CompiledRequestPattern
    let served: ServedResponse
    /// The priority, copied out of the mapping for the hot path.
    let priority: Int
    /// The first scenario fields, copied out for the hot path.
    let scenarioName: String?
    let requiredScenarioState: String?
    /// The response's templates, when it is rendered per request (nil keeps `served`).
    let template: ResponseTemplate?
    /// A templated stub's `proxyBaseUrl` holding a mustache, rendered per request.
    let proxyTemplate: ProxyBaseURLTemplate?
    /// The calls made once the stub answered (its webhooks), compiled.
    let webhooks: [CompiledWebhook]
    /// The state extension's `state-matcher`, checked after the scenario.
    let stateMatcher: CompiledStateMatcher?
    /// The state extension's listeners, run in order once the stub answered.
    let stateListeners: [CompiledStateListener]
    private let variantCache = Locked<[Variant: ServedResponse]>([:])

    init(
        mapping: StubMapping, sequence: Int, origin: StubOrigin, pattern: CompiledRequestPattern,
        served: ServedResponse,
        template: ResponseTemplate? = nil, proxyTemplate: ProxyBaseURLTemplate? = nil, webhooks: [CompiledWebhook] = [],
        stateMatcher: CompiledStateMatcher? = nil, stateListeners: [CompiledStateListener] = []
    ) {
        self.stateMatcher = stateMatcher
        self.stateListeners = stateListeners
        self.template = template
        self.webhooks = webhooks
        self.proxyTemplate = proxyTemplate
        self.mapping = mapping
        self.sequence = sequence
        self.origin = origin
        self.pattern = pattern
        self.served = served
        priority = mapping.effectivePriority
        scenarioName = mapping.scenarioName
        requiredScenarioState = mapping.scenarioName == nil ? nil : mapping.requiredScenarioState
    }

    /// Whether the stub matches the path with `urlPathTemplate`.
    var usesPathTemplate: Bool {
        if case .template = pattern.url { return true }
        return false
    }

    /// The `urlPathTemplate` variables the request's path gives, for templates.
    func pathParameters(_ request: MatchableRequest) -> [String: String] {
        guard case .template(let template) = pattern.url else { return [:] }
        return template.match(request.path) ?? [:]
    }

    /// Where the stub stands among those that match the same request.
    var precedence: StubPrecedence { StubPrecedence(priority: priority, sequence: sequence) }

    /// Whether this stub goes before `other`: higher priority (smaller number), then newer.
    func precedes(_ other: CompiledStub) -> Bool {
        precedence < other.precedence
    }

    /// Whether the request (and the scenario's state) lets this stub answer.
    func matches(_ request: MatchableRequest, scenarios: ScenarioStore, urlKnown: Bool = false) -> Bool {
        var recorder = FirstFailure()
        return evaluate(request, scenarios: scenarios, urlKnown: urlKnown, into: &recorder)
    }

    /// Every criterion, the scenario's state last, with what matched and what differed.
    func criteria(for request: MatchableRequest, scenarios: ScenarioStore) -> [MatchCriterion] {
        var recorder = AllCriteria()
        _ = evaluate(request, scenarios: scenarios, into: &recorder)
        return recorder.criteria
    }

    /// The request pattern's evaluation, then the scenario's state, then the state extension's
    /// matcher: the one place those states are checked, for serving and for near misses alike.
    func evaluate<Recorder: MatchRecorder>(
        _ request: MatchableRequest, scenarios: ScenarioStore, urlKnown: Bool = false, into recorder: inout Recorder
    ) -> Bool {
        guard pattern.evaluate(request, urlKnown: urlKnown, into: &recorder) else { return false }
        if let scenarioName, let requiredScenarioState {
            let state = scenarios.state(of: scenarioName)
            let matched = recorder.record(state == requiredScenarioState) {
                MatchCriterion(
                    name: "scenario", matched: false,
                    expected: "'\(scenarioName)' in state '\(requiredScenarioState)'", actual: "state '\(state)'",
                    distance: 1)
            }
            guard matched else { return false }
        }
        guard let stateMatcher else { return true }
        return stateMatcher.evaluate(request, store: scenarios.contexts, into: &recorder)
    }

    /// The answer under a generated variant, made once per variant and kept (at most 64
    /// variants per stub; the cache starts over past that).
    func served(under variant: Variant) -> ServedResponse {
        if let cached = variantCache.withLock({ $0[variant] }) { return cached }
        let made = DriftGenerator.apply(variant, to: served, stub: mapping)
        variantCache.withLock { cache in
            if cache.count >= 64 { cache.removeAll() }
            cache[variant] = made
        }
        return made
    }
}

/// Where a mapping came from: a file under the stub root, the admin API, or Swift code.
enum StubOrigin: Sendable, Hashable {
    case file(String)
    case admin
    case code
}

/// The order in which stubs that match the same request are preferred: a higher priority
/// (a smaller number, 1 first) wins, then the newer stub (a higher load sequence).
struct StubPrecedence: Comparable, Sendable {
    let priority: Int
    let sequence: Int

    /// Whether `lhs` goes before `rhs`.
    static func < (lhs: StubPrecedence, rhs: StubPrecedence) -> Bool {
        lhs.priority != rhs.priority ? lhs.priority < rhs.priority : lhs.sequence > rhs.sequence
    }
}
