import Platform

/// The current state of every scenario (WireMock's stateful behaviour); each starts in
/// ``ScenarioStore/startedState``.
final class ScenarioStore: Sendable {
    /// The state every scenario starts in.
    static let startedState = "Started"

    private let states = Locked<[String: String]>([:])
    /// The state extension's contexts: matched (`state-matcher`) and reset beside the
    /// scenarios, and one per engine as they are.
    let contexts: StateContextStore

    init(stateLimits: StateLimits = .standard, clock: TimeSource = .system) {
        contexts = StateContextStore(limits: stateLimits, clock: clock)
    }

    /// The scenario's current state.
    func state(of name: String) -> String {
        states.withLock { $0[name] } ?? Self.startedState
    }

    /// Moves a scenario to a state.
    func set(_ name: String, to state: String) {
        states.withLock { $0[name] = state }
    }

    /// Moves a scenario from `expected` to `state` only if it is still in `expected`
    /// (nil: whatever it is in); returns whether it moved.
    @discardableResult
    func transition(_ name: String, from expected: String?, to state: String) -> Bool {
        states.withLock { states in
            let current = states[name] ?? Self.startedState
            guard expected == nil || expected == current else { return false }
            states[name] = state
            return true
        }
    }

    /// Puts every scenario back in the started state.
    func reset() {
        states.withLock { $0.removeAll() }
    }

    /// Puts one scenario back in the started state.
    func reset(_ name: String) {
        _ = states.withLock { $0.removeValue(forKey: name) }
    }
}

/// A scenario as the admin API shows it.
public struct Scenario: Sendable, Hashable {
    /// The scenario's name (WireMock uses it as the id too).
    public var name: String
    /// The current state.
    public var state: String
    /// Every state the mappings mention, the started state first.
    public var possibleStates: [String]
    /// The ids of the mappings taking part.
    public var mappingIDs: [String]

    /// Creates a scenario description.
    public init(name: String, state: String, possibleStates: [String], mappingIDs: [String]) {
        self.name = name
        self.state = state
        self.possibleStates = possibleStates
        self.mappingIDs = mappingIDs
    }
}
