import JSONKit
import Platform
import StubFormat

/// The problems of the last load of each mapping file: the first load, a reset, then each
/// hot reload replacing its file's entry (a deleted file's go with it).
package final class LoadProblemLog: Sendable {
    private let byFile = Locked<[String: [StubProblem]]>([:])

    /// Replaces everything with the problems of a full load.
    package func replaceAll(_ problems: [StubProblem]) {
        byFile.withLock { $0 = Dictionary(grouping: problems, by: \.file) }
    }

    /// Applies what hot reloads found.
    package func record(_ events: [StubServerEvent]) {
        byFile.withLock { log in
            for event in events {
                switch event {
                case .reloaded(let file, _, let problems), .reloadFailed(let file, let problems, _),
                    .neverServed(let file, let problems):
                    log[file] = problems.isEmpty ? nil : problems
                case .removed(let file, _):
                    log[file] = nil
                default:
                    break
                }
            }
        }
    }

    /// Every problem, by file name, then in the order found.
    var problems: [StubProblem] {
        byFile.withLock { log in log.keys.sorted().flatMap { log[$0] ?? [] } }
    }
}

extension Admin {
    /// The problems the stub folder has as last (re)loaded: the first load, a reset of the
    /// mappings, then each hot-reloaded file's.
    public func loadProblems() -> [StubProblem] {
        problemLog.problems
    }

    /// The problems of the requests petmock refused since the journal was last emptied (a
    /// variant no stub has, say), each once with the first request that had it and how many
    /// did, in the order first seen; at most 100, then `omitted` counts the requests whose
    /// problems were not kept.
    public func requestProblems() -> (problems: [RequestProblemCount], omitted: Int) {
        engine.requestProblems.snapshot
    }

    /// The outcomes of the stubs' webhook calls since the journal was last emptied, oldest
    /// first: at most 300, then `dropped` counts the older ones let go.
    public func webhookCalls() -> (calls: [WebhookCall], dropped: Int) {
        engine.webhookLog.snapshot
    }

    /// How many webhook calls had each outcome since the journal was last emptied.
    public func webhookTotals() -> WebhookTotals {
        engine.webhookLog.totals
    }

    /// How many webhook calls are waiting for their delay or under way.
    public var webhooksPending: Int { engine.webhooks.pendingCount }

    /// Where each mapping came from, in the order they are tried: the mapping file (as given
    /// to the loader), or nil for one added through the admin API or given in code.
    public func mappingSources() -> [(id: String, source: String, file: String?)] {
        engine.store.snapshot().index.all.map { stub in
            switch stub.origin {
            case .file(let path): (stub.mapping.id, "file", path)
            case .admin: (stub.mapping.id, "admin", nil)
            case .code: (stub.mapping.id, "code", nil)
            }
        }
    }
}
