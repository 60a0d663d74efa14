import HTTPCore
import StubFormat

/// An immutable, indexed set of compiled stubs: the base mappings and, apart, each named
/// variant's mappings. Lookups go by literal keys first (exact `url`, exact `urlPath`), then
/// by the literal leading segments of patterns and templates (`/api/things` for
/// `/api/things/[0-9]+`), looked up for each `/`-prefix of the request path, then the stubs
/// no key narrows. Every list is sorted by precedence, so each is scanned only until a better
/// match is impossible.
package final class StubIndex: Sendable {
    /// One group of stubs (the base, or one variant), indexed.
    ///
    /// The keyed lists hold ``Candidate``s: what decides precedence and which fields a request
    /// must have, inline, and an unretained reference to the stub (`all` keeps every stub
    /// alive). A stub that cannot match is passed over without reading it or retaining it:
    /// both event loops read the same stubs, and a retain is an atomic write to the stub's
    /// reference count, whose cache line the other core then has to fetch back.
    struct Part: Sendable {
        var byTarget: [Substring: [Candidate]] = [:]
        var byPath: [Substring: [Candidate]] = [:]
        var byPrefix: [Substring: [Candidate]] = [:]
        var unkeyed: [Candidate] = []
        var all: [CompiledStub] = []

        init(_ stubs: [CompiledStub]) {
            all = stubs.sorted { $0.precedes($1) }
            for stub in all {
                let reference = Candidate(stub)
                switch stub.pattern.url {
                case .equal(let text): byTarget[text[...], default: []].append(reference)
                case .path(let text): byPath[text[...], default: []].append(reference)
                case .pattern(let regex), .pathPattern(let regex):
                    if let key = Self.key(ofPrefix: regex.literalPrefix) {
                        byPrefix[key, default: []].append(reference)
                    } else {
                        unkeyed.append(reference)
                    }
                case .template(let template):
                    if let key = template.literalPrefix {
                        byPrefix[key[...], default: []].append(reference)
                    } else {
                        unkeyed.append(reference)
                    }
                case .any:
                    unkeyed.append(reference)
                }
            }
        }

        /// The leading whole segments a literal prefix fixes (`/api/things` for
        /// `/api/things/1`), or nil when it fixes none.
        static func key(ofPrefix prefix: String) -> Substring? {
            guard prefix.hasPrefix("/"), let slash = prefix.dropFirst().lastIndex(of: "/") else { return nil }
            return prefix[..<slash]
        }

        /// The best stub that answers the request, or nil.
        func match(_ request: MatchableRequest, scenarios: ScenarioStore) -> CompiledStub? {
            var best: Candidate?
            // Members of these two lists are keyed by exactly this URL or path.
            Self.consider(byTarget[request.target], request, scenarios, urlKnown: true, best: &best)
            Self.consider(byPath[request.path], request, scenarios, urlKnown: true, best: &best)
            if !byPrefix.isEmpty {
                // Every prefix of the path that ends before a `/`, then the whole path.
                let path = request.path
                let bytes = path.utf8
                var index = bytes.isEmpty ? bytes.endIndex : bytes.index(after: bytes.startIndex)
                while let slash = bytes[index...].firstIndex(of: UInt8(ascii: "/")) {
                    Self.consider(byPrefix[path[..<slash]], request, scenarios, urlKnown: false, best: &best)
                    index = bytes.index(after: slash)
                }
                Self.consider(byPrefix[path], request, scenarios, urlKnown: false, best: &best)
            }
            Self.consider(unkeyed, request, scenarios, urlKnown: false, best: &best)
            return best?.stub.takeUnretainedValue()
        }

        /// Scans a list in precedence order until a stub matches or none left can beat `best`
        /// (a static function with `best` passed `inout`: a closure capturing it would box it).
        private static func consider(
            _ list: [Candidate]?, _ request: MatchableRequest, _ scenarios: ScenarioStore, urlKnown: Bool,
            best: inout Candidate?
        ) {
            guard let list else { return }
            for candidate in list {
                if let best, !candidate.precedes(best) { return }
                guard request.queryNames.mayContain(candidate.requiredQueryNames),
                    request.headerNames.mayContain(candidate.requiredHeaderNames)
                else { continue }
                let matched = candidate.stub._withUnsafeGuaranteedRef {
                    $0.matches(request, scenarios: scenarios, urlKnown: urlKnown)
                }
                if matched {
                    best = candidate
                    return
                }
            }
        }
    }

    /// A stub as the index scans it: precedence and required fields copied out of it, and an
    /// unretained reference (the index's `all` keeps the stub alive).
    struct Candidate: Sendable {
        let stub: Unmanaged<CompiledStub>
        let precedence: StubPrecedence
        let requiredQueryNames: FieldNameMask
        let requiredHeaderNames: FieldNameMask

        init(_ stub: CompiledStub) {
            self.stub = Unmanaged.passUnretained(stub)
            precedence = stub.precedence
            requiredQueryNames = stub.pattern.requiredQueryNames
            requiredHeaderNames = stub.pattern.requiredHeaderNames
        }

        /// Whether this candidate goes before `other` (``StubPrecedence``).
        func precedes(_ other: Candidate) -> Bool {
            precedence < other.precedence
        }
    }

    let base: Part
    let variants: [String: Part]
    /// Every stub, base and variants, in precedence order.
    let all: [CompiledStub]
    /// The mappings (and mapping files) not loaded for their errors (``RefusedStub``).
    let refused: [RefusedStub]
    /// For a base stub that file variants marked `metadata.byAccept` share the request pattern
    /// of (a Postman request's saved examples), those variants in precedence order: the stubs
    /// `Accept` chooses among. Other variants answer only when named.
    let alternatives: [ObjectIdentifier: [CompiledStub]]
    /// The base stubs' example names (`metadata.example`, a Postman request's first example):
    /// names a request may ask by, which answer with the base.
    let exampleNames: Set<String>

    init(_ stubs: [CompiledStub], refused: [RefusedStub] = []) {
        self.refused = refused
        var grouped: [String: [CompiledStub]] = [:]
        var baseStubs: [CompiledStub] = []
        for stub in stubs {
            if let variant = stub.mapping.variant {
                grouped[variant, default: []].append(stub)
            } else {
                baseStubs.append(stub)
            }
        }
        base = Part(baseStubs)
        exampleNames = Set(baseStubs.compactMap(\.mapping.exampleName))
        variants = grouped.mapValues { Part($0) }
        all = stubs.sorted { $0.precedes($1) }
        var byPattern: [RequestPattern: [CompiledStub]] = [:]
        for stub in all where stub.mapping.isChosenByAccept {
            byPattern[stub.mapping.request, default: []].append(stub)
        }
        var alternatives: [ObjectIdentifier: [CompiledStub]] = [:]
        if !byPattern.isEmpty {
            for stub in base.all {
                if let shared = byPattern[stub.mapping.request] { alternatives[ObjectIdentifier(stub)] = shared }
            }
        }
        self.alternatives = alternatives
    }

    /// The names of the file variants, sorted.
    var variantNames: [String] { variants.keys.sorted() }

    /// The names a request may ask for, sorted: the file variants' and the base stubs' example
    /// names.
    var askableNames: [String] {
        exampleNames.isEmpty ? variantNames : Set(variants.keys).union(exampleNames).sorted()
    }

    /// The stub answering a request: the named variant's stubs first when one is active,
    /// then the base (the base itself, not an `Accept` alternative, when the name is its
    /// example's).
    func match(_ request: MatchableRequest, variant: String?, scenarios: ScenarioStore) -> CompiledStub? {
        if let variant, let part = variants[variant], let stub = part.match(request, scenarios: scenarios) {
            return stub
        }
        guard let stub = base.match(request, scenarios: scenarios) else { return nil }
        if alternatives.isEmpty || variant != nil && stub.mapping.exampleName == variant { return stub }
        return negotiated(stub, request, scenarios: scenarios)
    }

    /// Of a base stub and the variants that share its request pattern, the one whose
    /// `Content-Type` the request's `Accept` prefers (``ContentNegotiation``); the base when
    /// the request has no `Accept`, accepts none of them, or accepts the base's type as well.
    /// A stub with no content type offers `*/*`: only a range that accepts anything takes it.
    func negotiated(_ stub: CompiledStub, _ request: MatchableRequest, scenarios: ScenarioStore) -> CompiledStub {
        guard let others = alternatives[ObjectIdentifier(stub)], let accept = request.headers.first(name: "Accept")
        else { return stub }
        let candidates = [stub] + others.filter { $0.matches(request, scenarios: scenarios) }
        let offered = candidates.map { $0.mapping.response.servedContentType ?? "*/*" }
        guard let index = ContentNegotiation.choose(offered, accept: accept) else { return stub }
        return candidates[index]
    }

    /// The best stub, base or any variant, that answers the request with this status
    /// (`Prefer: code=NNN`).
    func match(_ request: MatchableRequest, status: Int, scenarios: ScenarioStore) -> CompiledStub? {
        let candidates = base.all + variants.keys.sorted().flatMap { variants[$0]?.all ?? [] }
        return candidates.first { $0.served.status == status && $0.matches(request, scenarios: scenarios) }
    }

    /// The statuses the stubs that match this request (in any variant) answer with.
    func statuses(for request: MatchableRequest, scenarios: ScenarioStore) -> [Int] {
        Set(all.filter { $0.matches(request, scenarios: scenarios) }.compactMap(\.served.status)).sorted()
    }

    /// The stubs closest to a request that none answered, closest first: base stubs and the
    /// active variant's, never those of inactive variants.
    func nearMisses(
        for request: MatchableRequest, variant: String?, scenarios: ScenarioStore, limit: Int = 3
    ) -> [NearMiss] {
        var candidates = base.all
        if let variant, let part = variants[variant] { candidates += part.all }
        var misses: [NearMiss] = []
        for stub in candidates {
            let criteria = stub.criteria(for: request, scenarios: scenarios)
            let distance = criteria.map(\.distance).reduce(0, +) / Double(max(1, criteria.count))
            misses.append(NearMiss(mapping: stub.mapping, file: stub.file, distance: distance, criteria: criteria))
        }
        return Array(misses.sorted { $0.distance < $1.distance }.prefix(limit))
    }

    /// The refused mappings that would have matched the request, for the 404 to name.
    func refused(matching request: MatchableRequest) -> [RefusedStub] {
        refused.filter { $0.matches(request) }
    }
}
