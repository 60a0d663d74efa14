import HTTPCore
import JSONKit
import Platform
import StubFormat

/// The stub server's administration, in process: the same operations the `/__admin` HTTP API
/// offers (WireMock's), for Swift callers such as an app's tests.
///
/// ```swift
/// let admin = server.admin
/// try admin.addMapping(StubMapping(request: RequestPattern(method: .get, url: .url("/ping")),
///                                  response: ResponseDefinition(body: .text("pong"))))
/// try admin.setVariant("missing:lastName")
/// #expect(admin.requests().first?.url == "/api/pets")
/// ```
public final class Admin: Sendable {
    package let engine: StubEngine
    private let shutdownAction: @Sendable () -> Void
    /// When the admin (and so the server) was created, in milliseconds since 1970.
    package let startedAt: Int64
    /// The problems of the last load of each mapping file, for `/__admin/petmock/problems`.
    package let problemLog = LoadProblemLog()

    package init(engine: StubEngine, shutdown: @escaping @Sendable () -> Void) {
        self.engine = engine
        startedAt = engine.store.clock.wallMilliseconds
        shutdownAction = shutdown
    }

    package var store: StubStore { engine.store }

    // MARK: Mappings

    /// Every mapping, in the order they are tried (highest priority, then newest, first).
    public func mappings() -> [StubMapping] {
        store.snapshot().index.all.map(\.mapping)
    }

    /// The mapping with this id.
    public func mapping(id: String) -> StubMapping? {
        store.stub(id: id)?.mapping
    }

    /// Adds a mapping; one whose id another mapping has already is refused, as WireMock does
    /// (``updateMapping(id:to:)`` replaces). With `persistent: true` it is also saved to the
    /// stub folder at once: when the file cannot be written, nothing changes.
    @discardableResult
    public func addMapping(_ mapping: StubMapping) throws(AdminError) -> StubMapping {
        if store.stub(id: mapping.id) != nil { throw .duplicateMappingID(mapping.id) }
        if mapping.persistent == true, store.loader != nil {
            switch store.addPersisting(mapping) {
            case .success(let stub): return stub.mapping
            case .failure(let error): throw Self.adminError(error)
            }
        }
        switch store.add(mapping) {
        case .success(let stub): return stub.mapping
        case .failure(let error): throw Self.adminError(error)
        }
    }

    /// Replaces the mapping with this id. As in WireMock, a persistent mapping
    /// (`persistent: true`, in the new mapping or, when it says nothing, in the old) has its
    /// file rewritten, atomically (an admin mapping gets its own file); when that fails,
    /// nothing changes. A mapping from a file that is not rewritten (hand-written,
    /// or holding other mappings too) is replaced in memory only: the change outlives reloads
    /// of other files and goes when its own file changes or on ``resetMappings()``.
    @discardableResult
    public func updateMapping(id: String, to mapping: StubMapping) throws(AdminError) -> StubMapping {
        switch store.update(id: id, with: mapping) {
        case nil: throw .mappingNotFound(id)
        case .success(let stub)?:
            return stub.mapping
        case .failure(let error)?: throw Self.adminError(error)
        }
    }

    /// Removes the mappings with these ids in one change (the index is rebuilt once); ids no
    /// mapping has are skipped. Returns how many were removed.
    @discardableResult
    public func removeMappings(ids: [String]) throws(AdminError) -> Int {
        do {
            return try store.delete(ids: ids)
        } catch {
            throw Self.adminError(error)
        }
    }

    /// Removes the mapping with this id. As in WireMock, a persistent mapping alone in its
    /// file has the file removed. A mapping from a file that is not removed (hand-written, or
    /// holding other mappings too) stays out of the running server across reloads of other
    /// files, and comes back when its own file changes or on ``resetMappings()``.
    public func removeMapping(id: String) throws(AdminError) {
        let removed: Bool
        do {
            removed = try store.delete(id: id)
        } catch {
            throw Self.adminError(error)
        }
        guard removed else { throw .mappingNotFound(id) }
    }

    /// Removes every mapping from the running server; files stay as they are, and their
    /// mappings come back when each file changes or on ``resetMappings()``.
    public func removeAllMappings() {
        store.removeAll()
    }

    /// Goes back to the mappings of the stub folder and of code: admin-added ones and admin
    /// changes to file mappings are dropped, and the files read again. Returns the problems
    /// the files have.
    @discardableResult
    public func resetMappings() throws(AdminError) -> [StubProblem] {
        do {
            let problems = try store.reset()
            problemLog.replaceAll(problems)
            return problems
        } catch {
            throw .reloadFailed(error)
        }
    }

    /// Saves the mappings added through the admin API to `mappings/` in the stub folder, one
    /// file each, atomically (temporary file, then rename). Returns the paths written.
    @discardableResult
    public func saveMappings() throws(AdminError) -> [String] {
        guard store.writer != nil else { throw .noStubFolder }
        var paths: [String] = []
        for mapping in store.adminMappings() {
            do {
                paths.append(try store.save(mapping))
            } catch {
                throw Self.adminError(error)
            }
        }
        return paths
    }

    /// Resets everything: mappings back to the files, journal emptied, scenarios started (and
    /// with them, the document's state). Throws when the stub folder cannot be read again (then
    /// nothing else is reset) or when the state file refuses the reset (the rest is reset).
    public func reset() throws(AdminError) {
        try resetMappings()
        clearRequests()
        try resetScenarios()
    }

    // MARK: Journal

    /// The journal, newest first.
    public func requests() -> [LoggedRequest] {
        engine.journal.entries().reversed()
    }

    /// The journal entry with this id.
    public func request(id: String) -> LoggedRequest? {
        engine.journal.entries().first { $0.id == id }
    }

    /// Empties the journal, and forgets the requests' problems (``requestProblems()``) and
    /// the webhook calls' outcomes (``webhookCalls()``).
    public func clearRequests() {
        engine.journal.clear()
        engine.requestProblems.clear()
        engine.webhookLog.clear()
    }

    /// Removes one journal entry; returns whether it was there.
    @discardableResult
    public func removeRequest(id: String) -> Bool {
        engine.journal.remove { $0.id == id } > 0
    }

    /// How many journaled requests match the pattern.
    public func countRequests(matching pattern: RequestPattern) throws(AdminError) -> Int {
        try findRequests(matching: pattern).count
    }

    /// The journaled requests that match the pattern, oldest first.
    public func findRequests(matching pattern: RequestPattern) throws(AdminError) -> [LoggedRequest] {
        let compiled = try Self.compile(pattern, clock: store.clock)
        return engine.journal.entries().filter { compiled.matches(MatchableRequest($0)) }
    }

    /// The pattern ready to match, or the admin error naming what in it cannot be compiled.
    static func compile(_ pattern: RequestPattern, clock: TimeSource) throws(AdminError) -> CompiledRequestPattern {
        var problems: [PatternProblem] = []
        guard let compiled = CompiledRequestPattern.compile(pattern, problems: &problems, clock: clock) else {
            throw .invalidMapping(
                problems.filter { $0.severity == .error }.map {
                    StubProblem(
                        .error, .invalidPattern, file: "", path: $0.path, expected: "a valid \($0.kind)",
                        found: "'\($0.error.pattern)' (\($0.error.reason))")
                })
        }
        return compiled
    }

    /// The journaled requests no stub answered, oldest first.
    public func unmatchedRequests() -> [LoggedRequest] {
        engine.journal.entries().filter { !$0.wasMatched }
    }

    /// The stubs closest to a request, closest first (at most `limit`).
    public func nearMisses(for request: LoggedRequest, limit: Int = 3) -> [NearMiss] {
        let snapshot = store.snapshot()
        var variant: String?
        if let name = request.variant, case .named(let named)? = try? Variant(name) { variant = named }
        return snapshot.index.nearMisses(
            for: MatchableRequest(request), variant: variant, scenarios: engine.scenarios, limit: limit)
    }

    /// For every unmatched request in the journal, its closest stubs (at most three each,
    /// closest first), as WireMock lists them.
    public func nearMissesOfUnmatchedRequests() -> [(request: LoggedRequest, nearMiss: NearMiss)] {
        unmatchedRequests().flatMap { request in
            nearMisses(for: request).map { (request, $0) }
        }
    }

    // MARK: Scenarios

    /// Every scenario the mappings mention, with its state.
    public func scenarios() -> [Scenario] {
        var order: [String] = []
        var states: [String: [String]] = [:]
        var ids: [String: [String]] = [:]
        let all = store.snapshot().index.all
        // States in the order the mappings name them, oldest mapping first (as WireMock lists
        // them), whatever their priorities.
        for stub in all.sorted(by: { $0.sequence < $1.sequence }) {
            guard let name = stub.mapping.scenarioName else { continue }
            if states[name] == nil {
                order.append(name)
                states[name] = [ScenarioStore.startedState]
            }
            for state in [stub.mapping.requiredScenarioState, stub.mapping.newScenarioState].compactMap({ $0 })
            where states[name]?.contains(state) == false {
                states[name]?.append(state)
            }
        }
        for stub in all {
            guard let name = stub.mapping.scenarioName else { continue }
            ids[name, default: []].append(stub.mapping.id)
        }
        return order.sorted().map {
            Scenario(
                name: $0, state: engine.scenarios.state(of: $0), possibleStates: states[$0] ?? [],
                mappingIDs: ids[$0] ?? [])
        }
    }

    /// Puts every scenario back in its started state, the state extension's contexts deleted,
    /// and the document's state (`--stateful`) back to its examples: a test that resets one
    /// resets the other. Throws ``AdminError/stateNotReset(_:)`` when the state file refuses
    /// the document's reset (the scenarios and contexts are reset).
    public func resetScenarios() throws(AdminError) {
        engine.scenarios.reset()
        engine.scenarios.contexts.reset()
        try resetState()
    }

    /// Moves a scenario to one of its states, or (nil) back to its started state.
    public func setScenarioState(_ state: String?, forScenario name: String) throws(AdminError) {
        guard let scenario = scenarios().first(where: { $0.name == name }) else { throw .scenarioNotFound(name) }
        guard let state else {
            engine.scenarios.reset(name)
            return
        }
        guard scenario.possibleStates.contains(state) else {
            throw .unknownScenarioState(scenario: name, state: state, possible: scenario.possibleStates)
        }
        engine.scenarios.set(name, to: state)
    }

    // MARK: Variants

    /// The server-wide variant, if one is set.
    public var variant: Variant? {
        store.snapshot().serverVariant
    }

    /// Sets the server-wide variant by name (file or generated), or clears it with nil. A JSON
    /// drift (`missing:vetId`, `type:$.owner.id`) must apply to at least one base stub's body,
    /// else the error lists the fields they have; once set, it changes the responses that
    /// have the field and leaves the others as they are.
    public func setVariant(_ name: String?) throws(VariantError) {
        guard let name else {
            store.setServerVariant(nil)
            return
        }
        store.setServerVariant(try engine.resolveServerWide(name, in: store.snapshot().index))
    }

    /// The file variants the mappings define and the generated forms.
    public func variants() -> VariantCatalog {
        let document = engine.fallback?.variantSources() ?? (mappings: [], operations: [])
        return VariantCatalog(
            mappings: mappings() + document.mappings, active: variant?.description, operations: document.operations)
    }

    // MARK: Server

    /// How many requests the journal keeps.
    public var journalCapacity: Int { engine.journal.capacity }

    /// Stops the server gracefully (in-flight answers are sent).
    public func shutdown() {
        shutdownAction()
    }

    package static func adminError(_ error: StubLoadError) -> AdminError {
        if case .invalidStubs(let problems) = error { return .invalidMapping(problems) }
        return .reloadFailed(error)
    }

    static func adminError(_ error: MappingChangeError) -> AdminError {
        switch error {
        case .invalid(let problems): .invalidMapping(problems)
        case .fileNotChanged(let path, let reason): .saveFailed(path: path, reason: reason)
        }
    }
}
