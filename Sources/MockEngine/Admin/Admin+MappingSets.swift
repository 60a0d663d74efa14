import JSONKit
import StubFormat

/// WireMock's operations on sets of mappings: removal by example (`POST /__admin/mappings/remove`,
/// what its Java client's `removeStub(...)` sends) and import (`POST /__admin/mappings/import`).
extension Admin {
    /// Removes the mapping with `example`'s id when `matchByID` and one has it, else the first
    /// (in matching order) whose request pattern equals `example`'s, as WireMock does. Returns
    /// the id removed, nil when no mapping was like it (WireMock answers 200 then too).
    @discardableResult
    public func removeMapping(like example: StubMapping, matchByID: Bool) throws(AdminError) -> String? {
        let all = mappings()
        let found =
            (matchByID ? all.first { $0.id == example.id } : nil) ?? all.first { $0.request == example.request }
        guard let found else { return nil }
        try removeMapping(id: found.id)
        return found.id
    }

    /// How ``importMappings(_:options:)`` treats what is already there.
    public struct ImportOptions: Sendable, Hashable {
        /// Whether an imported mapping replaces the one with its id (WireMock's `OVERWRITE`,
        /// the default) or leaves it (`IGNORE`).
        public var overwrite = true
        /// Whether mappings the import does not hold are removed.
        public var deleteAllNotInImport = false

        public init(overwrite: Bool = true, deleteAllNotInImport: Bool = false) {
            self.overwrite = overwrite
            self.deleteAllNotInImport = deleteAllNotInImport
        }
    }

    /// Adds each mapping, or replaces the one with its id (unless `options.overwrite` is
    /// false), and with `deleteAllNotInImport` removes the others. Every mapping is compiled
    /// first (its patterns, its body file), so one that cannot be served changes nothing.
    public func importMappings(_ imported: [StubMapping], options: ImportOptions) throws(AdminError) {
        for (index, mapping) in imported.enumerated() {
            let basePath = JSONPath.root.appending(key: "mappings").appending(index: index)
            let (stub, problems) = engine.store.compiler.compile(
                mapping, sequence: 0, origin: .admin, file: "", basePath: basePath)
            if stub == nil { throw .invalidMapping(problems.filter { $0.severity == .error }) }
        }
        let importedIDs = Set(imported.map(\.id))
        if options.deleteAllNotInImport {
            try removeMappings(ids: mappings().map(\.id).filter { !importedIDs.contains($0) })
        }
        for mapping in imported {
            if self.mapping(id: mapping.id) == nil {
                try addMapping(mapping)
            } else if options.overwrite {
                try updateMapping(id: mapping.id, to: mapping)
            }
        }
    }
}

extension Admin {
    /// The mappings no journaled request was answered by, in matching order (WireMock's
    /// `/__admin/mappings/unmatched`; the journal is bounded, so older answers are forgotten).
    public func unmatchedMappings() -> [StubMapping] {
        let answered = Set(requests().compactMap { $0.matchedMapping?.id })
        return mappings().filter { !answered.contains($0.id) }
    }

    /// The mappings whose `metadata` (as JSON text) the matcher accepts, in matching order;
    /// a mapping without metadata is never one (WireMock's `find-by-metadata`).
    public func mappings(withMetadataMatching matcher: StringMatcher) throws(AdminError) -> [StubMapping] {
        var problems: [PatternProblem] = []
        guard let compiled = CompiledMatcher.compile(matcher, at: "$", problems: &problems, clock: store.clock) else {
            throw .invalidMapping(
                problems.filter { $0.severity == .error }.map {
                    StubProblem(
                        .error, .invalidPattern, file: "", path: $0.path, expected: "a valid \($0.kind)",
                        found: "'\($0.error.pattern)' (\($0.error.reason))")
                })
        }
        return mappings().filter { mapping in
            guard let metadata = mapping.metadata else { return false }
            let value = JSONValue.object(metadata)
            return compiled.matches(value.serialized(), json: { value })
        }
    }
}
