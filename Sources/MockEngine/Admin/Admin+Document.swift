import JSONKit

extension Admin {
    /// The operations the fallback source answers (an OpenAPI document's), in its order; empty
    /// when there is none.
    public func documentOperations() -> [DocumentOperation] {
        engine.fallback?.operations ?? []
    }

    /// What the fallback source keeps with `--stateful`: every collection's count, or (with
    /// `collection`, its path below the mount point) its resources; nil without state, or when
    /// there is no such collection.
    public func state(collection: String? = nil) -> JSONValue? {
        engine.fallback?.state(collection: collection)
    }

    /// Puts the fallback source's state back where it started (the document's examples): all
    /// of it, or one collection; false without state, or when there is no such collection.
    /// Throws ``AdminError/stateNotReset(_:)``, having changed nothing, when the state file
    /// (`--state-file`) refuses the reset.
    @discardableResult
    public func resetState(collection: String? = nil) throws(AdminError) -> Bool {
        do {
            return try engine.fallback?.resetState(collection: collection) ?? false
        } catch {
            throw .stateNotReset(error)
        }
    }
}
