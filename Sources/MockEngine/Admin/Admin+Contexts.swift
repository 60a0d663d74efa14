import Templating

extension Admin {
    /// The state extension's contexts (`recordState`), by name.
    public func stateContexts() -> [(name: String, context: StateContext)] {
        engine.scenarios.contexts.all()
    }

    /// The context called `name`, or nil when none exists.
    public func stateContext(named name: String) -> StateContext? {
        engine.scenarios.contexts.stateContext(named: name)
    }

    /// Deletes the context called `name`; false when none existed.
    @discardableResult
    public func deleteStateContext(named name: String) -> Bool {
        engine.scenarios.contexts.delete(named: name)
    }

    /// Deletes every context of the state extension.
    public func deleteStateContexts() {
        engine.scenarios.contexts.reset()
    }
}
