import HTTPCore
import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat
import Templating

extension AdminRouter {
    /// Every route of the admin API, one declaration each: method, path under `/__admin`,
    /// handler. WireMock's routes, then petmock's own under `/petmock`. Where two routes fit a
    /// request, the one with more literal segments wins (`/mappings/unmatched` before
    /// `/mappings/{id}`).
    static let routes: [AdminRoute] = [
        AdminRoute(.get, "/health") { router, _ in router.health() },
        AdminRoute(.get, "/version") { router, call in router.versionResponse(call.headers) },
        AdminRoute(.post, "/shutdown") { router, _ in router.shutdown() },
        AdminRoute(.post, "/reset") { router, _ in router.perform { () throws(AdminError) in try router.admin.reset() }
        },

        AdminRoute(.get, "/settings") { router, _ in router.settings() },
        AdminRoute(.put, "/settings") { router, call in router.changeSettings(call.body, .replace) },
        AdminRoute(.post, "/settings") { router, call in router.changeSettings(call.body, .replace) },
        AdminRoute(.patch, "/settings") { router, call in router.changeSettings(call.body, .merge) },
        AdminRoute(.patch, "/settings/extended") { router, call in router.changeSettings(call.body, .mergeExtended) },

        AdminRoute(.get, "/files") { router, _ in router.listBodyFiles() },
        AdminRoute(.get, "/files/{name...}") { router, call in router.bodyFile(call["name"]) },
        AdminRoute(.put, "/files/{name...}") { router, call in router.writeBodyFile(call["name"], call.body) },
        AdminRoute(.delete, "/files/{name...}") { router, call in router.removeBodyFile(call["name"]) },

        AdminRoute(.get, "/mappings") { router, call in router.listMappings(call.query) },
        AdminRoute(.post, "/mappings") { router, call in router.createMapping(call.body) },
        AdminRoute(.delete, "/mappings") { router, _ in router.removeAllMappings() },
        AdminRoute(.post, "/mappings/remove") { router, call in router.removeMappingLike(call.body) },
        AdminRoute(.get, "/mappings/unmatched") { router, _ in router.unmatchedMappings(remove: false) },
        AdminRoute(.delete, "/mappings/unmatched") { router, _ in router.unmatchedMappings(remove: true) },
        AdminRoute(.post, "/mappings/import") { router, call in router.importMappings(call.body) },
        AdminRoute(.post, "/mappings/find-by-metadata") { router, call in router.byMetadata(call.body, remove: false) },
        AdminRoute(.post, "/mappings/remove-by-metadata") { router, call in router.byMetadata(call.body, remove: true)
        },
        AdminRoute(.post, "/mappings/reset") { router, _ in
            router.perform { () throws(AdminError) in try router.admin.resetMappings() }
        },
        AdminRoute(.post, "/mappings/save") { router, _ in router.saveMappings() },
        AdminRoute(.get, "/mappings/{id}") { router, call in router.mapping(call["id"]) },
        AdminRoute(.put, "/mappings/{id}") { router, call in router.updateMapping(call["id"], call.body) },
        AdminRoute(.delete, "/mappings/{id}") { router, call in router.removeMapping(call["id"]) },

        AdminRoute(.get, "/requests") { router, call in router.listRequests(call.query) },
        AdminRoute(.delete, "/requests") { router, _ in router.clearRequests() },
        AdminRoute(.post, "/requests/reset") { router, _ in router.clearRequests() },
        AdminRoute(.post, "/requests/remove") { router, call in router.removeRequests(call.body, byMetadata: false) },
        AdminRoute(.post, "/requests/remove-by-metadata") { router, call in
            router.removeRequests(call.body, byMetadata: true)
        },
        AdminRoute(.post, "/requests/count") { router, call in router.findRequests(call.body, count: true) },
        AdminRoute(.post, "/requests/find") { router, call in router.findRequests(call.body, count: false) },
        AdminRoute(.get, "/requests/unmatched") { router, _ in router.unmatchedRequests() },
        AdminRoute(.get, "/requests/unmatched/near-misses") { router, _ in router.nearMissesOfUnmatchedRequests() },
        AdminRoute(.get, "/requests/{id}") { router, call in router.request(call["id"]) },
        AdminRoute(.delete, "/requests/{id}") { router, call in router.removeRequest(call["id"]) },
        AdminRoute(.post, "/near-misses/request") { router, call in router.nearMisses(call.body) },
        AdminRoute(.post, "/near-misses/request-pattern") { router, call in router.nearMissesOfPattern(call.body) },

        AdminRoute(.post, "/recordings/start") { router, call in router.startRecording(call.body) },
        AdminRoute(.post, "/recordings/stop") { router, _ in router.stopRecording() },
        AdminRoute(.get, "/recordings/status") { router, _ in router.recordingStatus() },
        AdminRoute(.post, "/recordings/snapshot") { router, call in router.snapshotRecording(call.body) },

        AdminRoute(.get, "/scenarios") { router, _ in router.scenarios() },
        AdminRoute(.post, "/scenarios/reset") { router, _ in router.resetScenarios() },
        AdminRoute(.put, "/scenarios/{name}/state") { router, call in router.setScenarioState(call["name"], call.body)
        },

        AdminRoute(.get, "/petmock/variant") { router, _ in router.variant() },
        AdminRoute(.put, "/petmock/variant") { router, call in router.setVariant(call.body) },
        AdminRoute(.post, "/petmock/variant") { router, call in router.setVariant(call.body) },
        AdminRoute(.delete, "/petmock/variant") { router, _ in router.clearVariant() },
        AdminRoute(.get, "/petmock/variants") { router, _ in Self.json(router.admin.variants().json) },
        AdminRoute(.get, "/petmock/problems") { router, _ in router.problems() },
        AdminRoute(.get, "/petmock/webhooks") { router, _ in router.webhooks() },
        AdminRoute(.get, "/petmock/operations") { router, _ in router.operations() },
        AdminRoute(.get, "/petmock/sources") { router, _ in router.sources() },
        AdminRoute(.get, "/petmock/state") { router, _ in router.state(nil) },
        AdminRoute(.get, "/petmock/state/{collection...}") { router, call in router.state(call["collection"]) },
        AdminRoute(.delete, "/petmock/state") { router, _ in router.resetState(nil) },
        AdminRoute(.delete, "/petmock/state/{collection...}") { router, call in router.resetState(call["collection"]) },
        AdminRoute(.get, "/petmock/contexts") { router, _ in router.stateContexts() },
        AdminRoute(.get, "/petmock/contexts/{name}") { router, call in router.stateContext(call["name"]) },
        AdminRoute(.delete, "/petmock/contexts") { router, _ in router.deleteStateContexts() },
        AdminRoute(.delete, "/petmock/contexts/{name}") { router, call in router.deleteStateContext(call["name"]) },
    ]

    // The handlers too small for a file of their own.

    func health() -> HTTPResponse {
        let now = admin.store.clock.wallMilliseconds
        return Self.json([
            "status": "healthy", "message": "petmock is ok", "version": .string(version),
            "uptimeInSeconds": .int((now - admin.startedAt) / 1000),
            "timestamp": .string(Timestamp.iso8601(milliseconds: now)),
            "mappings": .int(Int64(admin.mappings().count)),
        ])
    }

    /// Begins the shutdown: the server only stops taking work on its loops' next turn, so this
    /// answer still goes out.
    func shutdown() -> HTTPResponse {
        let response = Self.json(["message": "Shutting down"])
        admin.shutdown()
        return response
    }

    func removeAllMappings() -> HTTPResponse {
        admin.removeAllMappings()
        return Self.json([:])
    }

    func saveMappings() -> HTTPResponse {
        do {
            let paths = try admin.saveMappings()
            return Self.json(["saved": .array(paths.map(JSONValue.string))])
        } catch {
            return Self.failure(error)
        }
    }

    func mapping(_ id: String) -> HTTPResponse {
        guard let mapping = admin.mapping(id: id) else { return Self.failure(Self.noMapping(id)) }
        return Self.json(mapping.json)
    }

    func removeMapping(_ id: String) -> HTTPResponse {
        guard admin.mapping(id: id) != nil else { return Self.failure(Self.noMapping(id)) }
        return perform { () throws(AdminError) in try admin.removeMapping(id: id) }
    }

    func clearRequests() -> HTTPResponse {
        admin.clearRequests()
        return Self.json([:])
    }

    func unmatchedRequests() -> HTTPResponse {
        Self.json([
            "requests": .array(admin.unmatchedRequests().map(AdminJSON.request)), "requestJournalDisabled": false,
        ])
    }

    func nearMissesOfUnmatchedRequests() -> HTTPResponse {
        let misses = admin.nearMissesOfUnmatchedRequests().map { AdminJSON.nearMiss($0.nearMiss, request: $0.request) }
        return Self.json(["nearMisses": .array(misses)])
    }

    func request(_ id: String) -> HTTPResponse {
        guard Identifiers.isUUID(id) else { return Self.failure(.invalidRequestID(id)) }
        guard let request = admin.request(id: id) else { return Self.notFound("No request with id '\(id)'") }
        return Self.json(AdminJSON.serveEvent(request))
    }

    func removeRequest(_ id: String) -> HTTPResponse {
        guard Identifiers.isUUID(id) else { return Self.failure(.invalidRequestID(id)) }
        guard admin.removeRequest(id: id) else { return Self.notFound("No request with id '\(id)'") }
        return Self.json([:])
    }

    func scenarios() -> HTTPResponse {
        let mappings = Dictionary(admin.mappings().map { ($0.id, $0) }) { first, _ in first }
        return Self.json([
            "scenarios": .array(admin.scenarios().map { AdminJSON.scenario($0, mappings: mappings) })
        ])
    }

    func resetScenarios() -> HTTPResponse {
        perform { () throws(AdminError) in try admin.resetScenarios() }
    }

    func variant() -> HTTPResponse {
        Self.json(["variant": admin.variant.map { .string($0.description) } ?? .null])
    }

    func clearVariant() -> HTTPResponse {
        try? admin.setVariant(nil)
        return Self.json(["variant": .null])
    }

    func problems() -> HTTPResponse {
        let (requestProblems, omitted) = admin.requestProblems()
        return Self.json([
            "problems": .array(admin.loadProblems().map(AdminJSON.problem)),
            "requestProblems": .array(requestProblems.map(AdminJSON.problem)),
            "requestProblemsOmitted": .int(Int64(omitted)),
        ])
    }

    func webhooks() -> HTTPResponse {
        let (calls, dropped) = admin.webhookCalls()
        let totals = admin.webhookTotals()
        return Self.json([
            "webhooks": .array(calls.map(AdminJSON.webhook)), "dropped": .int(Int64(dropped)),
            "pending": .int(Int64(admin.webhooksPending)),
            "totals": [
                "answered": .int(Int64(totals.answered)), "failed": .int(Int64(totals.failed)),
                "refused": .int(Int64(totals.refused)),
            ],
        ])
    }

    func operations() -> HTTPResponse {
        Self.json(["operations": .array(admin.documentOperations().map(AdminJSON.operation))])
    }

    /// The document's state (`--stateful`): every collection, or one (`things`, `users/7/orders`).
    func state(_ collection: String?) -> HTTPResponse {
        let path = collection.map { "/" + $0 }
        if let state = admin.state(collection: path) { return Self.json(state) }
        guard let path else { return Self.json(["stateful": false, "collections": [], "items": 0, "bytes": 0]) }
        return Self.notFound(Self.noCollection(path))
    }

    func resetState(_ collection: String?) -> HTTPResponse {
        let path = collection.map { "/" + $0 }
        do {
            guard try admin.resetState(collection: path) || path == nil else {
                return Self.notFound(Self.noCollection(path ?? ""))
            }
        } catch {
            return Self.failure(error)
        }
        return Self.json([:])
    }

    func stateContexts() -> HTTPResponse {
        let contexts = admin.stateContexts()
        return Self.json([
            "contexts": .array(contexts.map { $0.context.json(named: $0.name) }),
            "total": .int(Int64(contexts.count)),
        ])
    }

    func stateContext(_ name: String) -> HTTPResponse {
        guard let context = admin.stateContext(named: name) else { return Self.notFound(Self.noContext(name)) }
        return Self.json(context.json(named: name))
    }

    func deleteStateContext(_ name: String) -> HTTPResponse {
        guard admin.deleteStateContext(named: name) else { return Self.notFound(Self.noContext(name)) }
        return Self.json([:])
    }

    func deleteStateContexts() -> HTTPResponse {
        admin.deleteStateContexts()
        return Self.json([:])
    }

    private static func noContext(_ name: String) -> String {
        "No context '\(name)': stubs' recordState listeners make them (see GET /__admin/petmock/contexts)"
    }

    private static func noCollection(_ path: String) -> String {
        "No stored collection '\(path)': petmock keeps state with --openapi and --stateful, for the document's "
            + "collections (see GET /__admin/petmock/state)"
    }

    func sources() -> HTTPResponse {
        let sources = admin.mappingSources().map { entry -> JSONValue in
            [
                "id": .string(entry.id), "source": .string(entry.source),
                "file": entry.file.map(JSONValue.string) ?? .null,
            ]
        }
        return Self.json(["mappings": .array(sources)])
    }
}
